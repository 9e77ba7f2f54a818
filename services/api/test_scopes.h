#pragma once
// Callers for the API's unit tests, as the guard would authenticate them,
// and the org tree they are authorised under.

#include <string>
#include <utility>
#include <vector>

#include "services/api/auth.h"

namespace fleetcap::api::test_scopes {

// Two orgs: research > vision > vision-detect, and ads; billed in EUR.
inline constexpr char kTwoOrgPolicy[] = R"(version: 1
currency: EUR
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: vision-detect
    parent: vision
  - name: ads
    kind: org
)";

// A team token of `team`, covering `teams` (the team and those below it).
inline Scope TeamScope(const std::string& team, std::vector<std::string> teams) {
  Scope scope;
  scope.role = Role::kTeam;
  scope.team = team;
  scope.teams = std::move(teams);
  return scope;
}

}  // namespace fleetcap::api::test_scopes
