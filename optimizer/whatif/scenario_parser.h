#pragma once
// Scenario YAML -> ScenarioDocument, as strict as the policy's parser (it
// reads with the same policy::YamlReader): unknown keys, repeated keys,
// values of the wrong type or out of range each give an error naming the
// line and the field; every problem is reported at once. docs/whatif.md
// describes the format.

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "optimizer/whatif/scenario_document.h"
#include "policy/policy_parser.h"

namespace fleetcap::whatif {

// Largest document accepted, in bytes, and most entries in one list.
inline constexpr size_t kMaxScenarioBytes = 64 * 1024;
inline constexpr size_t kMaxScenarioEntries = 100;
// Largest change of capacity (devices) and largest demand factor.
inline constexpr int64_t kMaxCapacityChangeMilli = 1'000'000'000;  // a million devices
inline constexpr int64_t kMaxFactorMicro = 1'000'000'000;          // x1000
inline constexpr int64_t kMaxPriceMicro = 1'000'000'000'000;       // a million per device-hour

struct ParsedScenario {
  ScenarioDocument document;                // meaningful only when errors is empty
  std::vector<policy::PolicyError> errors;  // ordered by line
  bool ok() const { return errors.empty(); }
};

ParsedScenario ParseScenario(absl::string_view text);

// INVALID_ARGUMENT listing `errors` ("scenario:LINE:COLUMN: FIELD: MESSAGE", one per line); OK when empty.
absl::Status ScenarioErrors(const std::vector<policy::PolicyError>& errors);

}  // namespace fleetcap::whatif
