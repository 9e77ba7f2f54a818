#include "optimizer/chargeback/policy_timeline_source.h"

#include "optimizer/teams/team_directory.h"

namespace fleetcap::chargeback {

policy::PolicyTimeline::Fetch PoliciesOf(store::TeamFactsRepository* teams) { return teams::PoliciesOf(teams); }

}  // namespace fleetcap::chargeback
