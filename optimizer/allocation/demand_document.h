#pragma once
// demand.yaml, the declared input of the offline solver
// (`fleetcap-optimizer allocate`, docs/allocation.md "demand.yaml"): devices
// per team and flavor, and optionally the capacity of a flavor in place of the
// policy's. Parsed strictly: every problem is reported, each naming its line
// and field, in the policy parser's format (policy/policy_parser.h).

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "policy/policy_parser.h"

namespace fleetcap::allocation {

struct DeclaredDemand {
  std::string team;
  std::string flavor;
  int64_t milli = 0;
  int line = 0;
};

struct DeclaredCapacity {
  std::string flavor;
  int64_t milli = 0;
  int line = 0;
};

struct DemandDocument {
  std::vector<DeclaredDemand> demand;
  std::vector<DeclaredCapacity> capacity;
};

struct ParsedDemand {
  DemandDocument document;                  // meaningful only when errors is empty
  std::vector<policy::PolicyError> errors;  // ordered by line
  bool ok() const { return errors.empty(); }
};

inline constexpr size_t kMaxDemandBytes = 8 * 1024 * 1024;

ParsedDemand ParseDemand(absl::string_view text);

}  // namespace fleetcap::allocation
