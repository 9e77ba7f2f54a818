#pragma once
// What changes between two policies, in the words a planner reads: "team
// added: team-12 (under research)", "price of T4 in all clusters from
// 2026-02-01T00:00:00Z: 0.35 -> 0.40 per device-hour". Ordered: settings,
// teams, namespaces, label keys, flavors, prices, attribution, allocation, throughput,
// insights, budgets.

#include <string>
#include <vector>

#include "policy/policy_document.h"

namespace fleetcap::policy {

std::vector<std::string> DiffPolicies(const PolicyDocument& before, const PolicyDocument& after);

}  // namespace fleetcap::policy
