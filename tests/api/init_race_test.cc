// `fleetcap-api init` run twice at the same time against one database mints
// exactly one admin token. The race is made certain rather than lucky: the
// test locks the token table, starts both inits, waits until both are held up
// in the database, and only then lets them go.

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/time/clock.h"
#include "common/pg_pool.h"
#include "pqxx/pqxx"
#include "store/pg_control_repositories.h"
#include "tests/support/build_paths.h"
#include "tests/support/pg_sessions.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

TEST(InitRaceTest, TwoConcurrentInitsMintExactlyOneAdminToken) {
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(::testing::Message() << "round " << round);
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    auto locker = (*db)->Connect();
    pqxx::work lock(*locker);
    testing::LockTableExclusively(lock, "api_tokens");

    std::vector<std::unique_ptr<testing::Subprocess>> inits;
    for (int i = 0; i < 2; ++i) {
      auto init = testing::Subprocess::Start({fleetcap::testing::kApiBin, "init", "--db", (*db)->uri()});
      ASSERT_THAT(init, IsOk());
      inits.push_back(std::move(*init));
    }
    ASSERT_TRUE((*db)->SessionsWaitForALock(2, absl::Seconds(60)));
    lock.abort();

    int minted = 0, refused = 0;
    for (auto& init : inits) {
      const testing::RunResult result = init->Wait(absl::Seconds(60));
      if (result.exit_code == 0) {
        ++minted;
        EXPECT_EQ(result.out.rfind("fct_", 0), 0u) << result.out;
      } else {
        ++refused;
        EXPECT_THAT(result.err, HasSubstr("already initialised")) << result.err;
      }
    }
    EXPECT_EQ(minted, 1);
    EXPECT_EQ(refused, 1);
    auto pool = PgPool::Open((*db)->uri(), 1);
    ASSERT_THAT(pool, IsOk());
    auto tokens = store::PgTokenRepository(pool->get()).List();
    ASSERT_THAT(tokens, IsOk());
    EXPECT_EQ(
        std::count_if(tokens->begin(), tokens->end(), [](const store::TokenRecord& t) { return t.role == "admin"; }),
        1);
  }
}

}  // namespace
}  // namespace fleetcap
