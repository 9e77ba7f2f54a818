#pragma once
// A policy timeline that reads its versions from the store's team facts.

#include "policy/policy_timeline.h"
#include "store/team_facts_repository.h"

namespace fleetcap::chargeback {

// `teams` must outlive the timeline.
policy::PolicyTimeline::Fetch PoliciesOf(store::TeamFactsRepository* teams);

}  // namespace fleetcap::chargeback
