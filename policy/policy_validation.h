#pragma once
// Checks across a parsed document: names unique, references known (teams,
// flavors), the org tree acyclic, one trust entry per scope, price periods
// not overlapping, guarantees within each flavor's capacity, lending within
// the guarantee.

#include <vector>

#include "policy/policy_document.h"
#include "policy/policy_parser.h"

namespace fleetcap::policy {

std::vector<PolicyError> ValidatePolicy(const PolicyDocument& doc);

}  // namespace fleetcap::policy
