// How fleetcap-api starts and stops: schema checks, flags, SIGTERM.

#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pqxx/pqxx"
#include "store/migrations.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/schema_migrations.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

TEST(ApiStartup, OlderSchemaWithoutMigrateExitsNamingTheMissingMigrations) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto result = testing::Run({fleetcap::testing::kApiBin, "--db", (*db)->uri(), "--grpc-listen", "127.0.0.1:0",
                              "--http-listen", "127.0.0.1:0"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("missing migrations 0001_schema_v1")) << result.err;
  EXPECT_THAT(result.err, HasSubstr("--migrate")) << result.err;
}

TEST(ApiStartup, MigrateAppliesPendingMigrationsThenServes) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto api = testing::StartApi(fleetcap::testing::kApiBin, (*db)->uri(), {"--migrate"});
  ASSERT_THAT(api, IsOk());
  auto stopped = api->process->Stop(SIGTERM);
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  auto conn = (*db)->Connect();
  EXPECT_EQ(testing::AppliedMigrations(*conn).size(), store::BuiltinMigrations().size());
}

TEST(ApiStartup, NewerSchemaIsRefused) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  {
    auto conn = (*db)->Connect();
    testing::SeedAppliedMigration(*conn, 9999, "9999_from_the_future", "x");
  }
  for (bool migrate : {false, true}) {
    std::vector<std::string> argv = {fleetcap::testing::kApiBin,
                                     "--db",
                                     (*db)->uri(),
                                     "--grpc-listen",
                                     "127.0.0.1:0",
                                     "--http-listen",
                                     "127.0.0.1:0"};
    if (migrate) argv.push_back("--migrate");
    auto result = testing::Run(argv);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_THAT(result.err, HasSubstr("newer than this build: migration 9999_from_the_future")) << result.err;
  }
}

TEST(ApiStartup, HelpVersionAndBadFlags) {
  auto help = testing::Run({fleetcap::testing::kApiBin, "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--grpc-listen"));
  EXPECT_THAT(help.out, HasSubstr("FLEETCAP_DB"));
  auto version = testing::Run({fleetcap::testing::kApiBin, "--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("fleetcap-api ", 0), 0u) << version.out;
  auto bad = testing::Run({fleetcap::testing::kApiBin, "--grpc-port", "1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--grpc-port"));
  auto no_db = testing::Run({fleetcap::testing::kApiBin, "--db", ""}, absl::Seconds(30), {"FLEETCAP_DB="});
  EXPECT_EQ(no_db.exit_code, 1);
  EXPECT_THAT(no_db.err, HasSubstr("--db")) << no_db.err;
}

}  // namespace
}  // namespace fleetcap
