#include "tests/support/tokens.h"

#include "common/clock.h"
#include "common/pg_pool.h"
#include "services/api/token_operations.h"
#include "store/pg_control_repositories.h"

namespace fleetcap::testing {

absl::StatusOr<std::string> MintToken(const std::string& db_uri, const std::string& role) {
  auto pool = PgPool::Open(db_uri, 1);
  if (!pool.ok()) return pool.status();
  store::PgTokenRepository tokens(pool->get());
  RealClock clock;
  auto created = api::CreateToken(&tokens, clock, "test", role, "integration test", absl::Hours(24));
  if (!created.ok()) return created.status();
  return created->secret();
}

}  // namespace fleetcap::testing
