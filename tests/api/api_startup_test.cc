// How fleetcap-api starts and stops: schema checks, flags, SIGTERM.

#include <signal.h>

#include <gtest/gtest.h>

#include "pqxx/pqxx"
#include "store/migrations.h"
#include "tests/support/api_process.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

TEST(ApiStartup, OlderSchemaWithoutMigrateExitsNamingTheMissingMigrations) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  auto result = testing::Run({FLEETCAP_API_BIN, "--db", (*db)->uri(), "--grpc-listen", "127.0.0.1:0",
                              "--http-listen", "127.0.0.1:0"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("missing migrations 0001_schema_v1"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--migrate"), std::string::npos) << result.err;
}

TEST(ApiStartup, MigrateAppliesPendingMigrationsThenServes) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  auto api = testing::StartApi(FLEETCAP_API_BIN, (*db)->uri(), {"--migrate"});
  ASSERT_TRUE(api.ok()) << api.status();
  auto stopped = api->process->Stop(SIGTERM);
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  auto conn = (*db)->Connect();
  EXPECT_EQ(pqxx::nontransaction(*conn).exec("SELECT count(*) FROM schema_migrations")[0][0].as<size_t>(),
            store::BuiltinMigrations().size());
}

TEST(ApiStartup, NewerSchemaIsRefused) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  {
    auto conn = (*db)->Connect();
    pqxx::nontransaction(*conn).exec(
        "INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, '9999_from_the_future', 'x')");
  }
  for (bool migrate : {false, true}) {
    std::vector<std::string> argv = {FLEETCAP_API_BIN, "--db", (*db)->uri(), "--grpc-listen", "127.0.0.1:0",
                                     "--http-listen", "127.0.0.1:0"};
    if (migrate) argv.push_back("--migrate");
    auto result = testing::Run(argv);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("newer than this build: migration 9999_from_the_future"), std::string::npos)
        << result.err;
  }
}

TEST(ApiStartup, HelpVersionAndBadFlags) {
  auto help = testing::Run({FLEETCAP_API_BIN, "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--grpc-listen"), std::string::npos);
  EXPECT_NE(help.out.find("FLEETCAP_DB"), std::string::npos);
  auto version = testing::Run({FLEETCAP_API_BIN, "--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("fleetcap-api ", 0), 0u) << version.out;
  auto bad = testing::Run({FLEETCAP_API_BIN, "--grpc-port", "1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--grpc-port"), std::string::npos);
  auto no_db = testing::Run({FLEETCAP_API_BIN, "--db", ""}, absl::Seconds(30), {"FLEETCAP_DB="});
  EXPECT_EQ(no_db.exit_code, 1);
  EXPECT_NE(no_db.err.find("--db"), std::string::npos) << no_db.err;
}

}  // namespace
}  // namespace fleetcap
