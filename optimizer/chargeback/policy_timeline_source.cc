#include "optimizer/chargeback/policy_timeline_source.h"

#include <utility>
#include <vector>

#include "common/status_macros.h"

namespace fleetcap::chargeback {

policy::PolicyTimeline::Fetch PoliciesOf(store::TeamFactsRepository* teams) {
  return [teams](int32_t after) -> absl::StatusOr<std::vector<policy::StoredPolicy>> {
    FLEETCAP_ASSIGN_OR_RETURN(auto records, teams->PoliciesAfter(after));
    std::vector<policy::StoredPolicy> out;
    for (auto& r : records) out.push_back({r.version, r.applied_at, std::move(r.document)});
    return out;
  };
}

}  // namespace fleetcap::chargeback
