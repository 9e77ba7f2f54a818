#pragma once
// Bearer tokens for integration tests, written straight into the store the
// way fleetcap-api would (hash only), so a test can hold one of every role.

#include <string>

#include "absl/status/statusor.h"

namespace fleetcap::testing {

// A live token with `role` (admin, planner, scheduler, team:<name>) for one day; returns its secret.
absl::StatusOr<std::string> MintToken(const std::string& db_uri, const std::string& role);

}  // namespace fleetcap::testing
