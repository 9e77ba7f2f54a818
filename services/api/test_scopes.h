#pragma once
// Callers for the API's unit tests, as the guard would authenticate them.

#include <string>
#include <utility>
#include <vector>

#include "services/api/auth.h"

namespace fleetcap::api::test_scopes {

// A team token of `team`, covering `teams` (the team and those below it).
inline Scope TeamScope(const std::string& team, std::vector<std::string> teams) {
  Scope scope;
  scope.role = Role::kTeam;
  scope.team = team;
  scope.teams = std::move(teams);
  return scope;
}

}  // namespace fleetcap::api::test_scopes
