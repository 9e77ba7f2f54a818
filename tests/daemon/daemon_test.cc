// The start-up every daemon shares (common/daemon.h), against a real
// PostgreSQL: what it refuses, and what it hands the command.

#include "common/daemon.h"

#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "prometheus/counter.h"
#include "store/migrator.h"
#include "tests/support/http_get.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::testing::HasSubstr;

DaemonOptions OneShot(const std::string& db) {
  DaemonOptions options;
  options.db = db;
  options.stop_on_signal = false;
  return options;
}

TEST(Daemon, HandsOverThePoolAndServesTheRegistry) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  DaemonOptions options = OneShot((*db)->uri());
  options.metrics_listen = "127.0.0.1:0";
  options.db_connections = 2;
  auto daemon = Daemon::Start(options, store::CheckSchema);
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  auto first = (*daemon)->pool()->Acquire();
  auto second = (*daemon)->pool()->Acquire(absl::ZeroDuration());
  EXPECT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(second.ok()) << second.status();
  prometheus::BuildCounter().Name("fleetcap_daemon_test_total").Help("a test").Register(*(*daemon)->registry()).Add({});
  ASSERT_GT((*daemon)->metrics_port(), 0);
  auto scraped = testing::HttpGet(absl::StrCat("http://127.0.0.1:", (*daemon)->metrics_port(), "/metrics"));
  ASSERT_TRUE(scraped.ok()) << scraped.status();
  EXPECT_THAT(scraped->body, HasSubstr("fleetcap_daemon_test_total 0"));
}

TEST(Daemon, WithoutMetricsListenServesNothing) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  auto daemon = Daemon::Start(OneShot((*db)->uri()), store::CheckSchema);
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  EXPECT_EQ((*daemon)->metrics_port(), 0);
}

TEST(Daemon, AnOlderSchemaIsRefusedUnlessMigrateIsGiven) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  DaemonOptions options = OneShot((*db)->uri());
  auto refused = Daemon::Start(options, store::CheckSchema);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("--migrate"));
  options.migrate = true;
  auto migrated = Daemon::Start(options, store::CheckSchema);
  EXPECT_TRUE(migrated.ok()) << migrated.status();
}

TEST(Daemon, RefusalsNameTheFlag) {
  auto no_db = Daemon::Start(OneShot(""), store::CheckSchema);
  EXPECT_EQ(no_db.status().message(), "--db: empty; give a libpq URI or set FLEETCAP_DB");
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  DaemonOptions options = OneShot((*db)->uri());
  options.metrics_listen = "256.0.0.1:1";
  auto no_metrics = Daemon::Start(options, store::CheckSchema);
  ASSERT_FALSE(no_metrics.ok());
  EXPECT_THAT(std::string(no_metrics.status().message()), HasSubstr("--metrics-listen"));
}

TEST(Daemon, SigtermAsksItToStop) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  DaemonOptions options = OneShot((*db)->uri());
  options.stop_on_signal = true;
  auto daemon = Daemon::Start(options, store::CheckSchema);
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  EXPECT_FALSE(*(*daemon)->stop_requested());
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);  // blocked in every thread but the daemon's watcher
  EXPECT_EQ((*daemon)->WaitForStop(), SIGTERM);
  EXPECT_TRUE(*(*daemon)->stop_requested());
}

}  // namespace
}  // namespace fleetcap
