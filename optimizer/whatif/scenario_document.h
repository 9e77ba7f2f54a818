#pragma once
// A what-if scenario (docs/whatif.md): changes applied on top of the current
// planning state without changing it. Pure data, as parsed from YAML;
// `line` fields remember where each change was written, so checks against
// the state (an unknown flavor or team) can point at it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::whatif {

inline constexpr int kScenarioSchemaVersion = 1;

// Devices of a flavor added (delta > 0) or removed (delta < 0) from `from` on.
struct CapacityChange {
  std::string flavor;
  int64_t delta_milli = 0;
  absl::Time from;
  int line = 0;
};

// A team's demand (its held history and its waiting pods) times a factor,
// on one flavor or ("" ) on every flavor.
struct DemandScale {
  std::string team;
  std::string flavor;        // "": every flavor
  int64_t factor_micro = 0;  // 1.5 -> 1'500'000
  int line = 0;
};

// The price of a device-hour of a flavor from `from` on.
struct PriceChange {
  std::string flavor;
  int64_t micro_per_device_hour = 0;
  absl::Time from;
  int line = 0;
};

// A different policy: a stored version, or sections that replace the active
// policy's (each top-level key of the patch replaces that whole section).
struct PolicyChange {
  std::optional<int32_t> version;
  // The patch's mapping as written (undefined when none): kept as nodes so a
  // problem of the patched policy can be pointed at the line it came from.
  YAML::Node patch;
  int line = 0;  // of `policy`
};

struct ScenarioDocument {
  std::string description;
  std::vector<CapacityChange> capacity;
  std::vector<DemandScale> demand;
  std::vector<PriceChange> prices;
  std::optional<PolicyChange> policy;
};

}  // namespace fleetcap::whatif
