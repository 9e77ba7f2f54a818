#include "tests/support/tokens.h"

#include "common/clock.h"
#include "common/pg_pool.h"
#include "common/status_macros.h"
#include "services/api/control/token_operations.h"
#include "store/pg_control_repositories.h"

namespace fleetcap::testing {

absl::StatusOr<std::string> MintToken(const std::string& db_uri, const std::string& role) {
  FLEETCAP_ASSIGN_OR_RETURN(auto pool, PgPool::Open(db_uri, 1));
  store::PgTokenRepository tokens(pool.get());
  RealClock clock;
  FLEETCAP_ASSIGN_OR_RETURN(auto created,
                            api::CreateToken(&tokens, clock, "test", role, "integration test", absl::Hours(24)));
  return created.secret();
}

}  // namespace fleetcap::testing
