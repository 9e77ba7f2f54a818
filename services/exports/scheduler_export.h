#pragma once
// The part of the Kueue and Volcano exports they share: a recommendation set
// checked against the policy it was computed under, grouped by leaf team,
// with the extended resource of each flavor it names.

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"

namespace fleetcap::exports {

// What any quantity of a recommendation may be: a billion devices, the
// allocation engine's own limit, so that g + b and the sums of a team's
// flavors fit int64.
inline constexpr int64_t kMaxExportMilli = 1'000'000'000'000;

// Points into the policy given to PrepareExport: valid while it lives.
struct ExportSet {
  std::map<std::string, const policy::Team*> teams;                        // every team of the policy, by name
  std::map<std::string, std::vector<std::string>> children;                // inner team -> its children, by name
  std::map<std::string, std::vector<allocation::Recommendation>> by_team;  // leaf team -> its rows, by flavor
  std::map<std::string, const policy::Flavor*> flavors;                    // every flavor a row names
  std::map<std::string, std::string> resource_of;                          // flavor -> its extended resource
};

// INVALID_ARGUMENT naming the team and flavor for a row whose team is not a
// leaf team of the policy, whose flavor the policy does not define, that
// repeats a team and flavor, or whose quantities are negative or above
// kMaxExportMilli; or naming the flavor for a bad resource override
// (AcceleratorResource).
absl::StatusOr<ExportSet> PrepareExport(const std::vector<allocation::Recommendation>& rows,
                                        const policy::PolicyDocument& policy,
                                        const std::map<std::string, std::string>& resource_overrides);

// The policy a set was computed under (RecommendationSet.policy_version, as
// PolicyService.GetPolicy returns its document), parsed for the exports;
// INVALID_ARGUMENT listing its problems as "policy version N:LINE:COLUMN: ...".
absl::StatusOr<policy::PolicyDocument> PolicyForExport(absl::string_view document, int version);

}  // namespace fleetcap::exports
