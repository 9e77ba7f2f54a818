// The start-up every daemon shares (common/daemon.h), against a real
// PostgreSQL: what it refuses, what it hands the command, and its probes
// (/healthz, /readyz: common/readiness.h).

#include "common/daemon.h"

#include <signal.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/readiness.h"
#include "pqxx/nontransaction"
#include "prometheus/counter.h"
#include "store/migrator.h"
#include "tests/support/http_get.h"
#include "tests/support/schema_migrations.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/private_postgres.h"

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

std::string Url(const Daemon& daemon, const std::string& path) {
  return absl::StrCat("http://127.0.0.1:", daemon.metrics_port(), path);
}

// Started with probes on a free port; readiness is looked at afresh on every
// probe unless the test says otherwise.
absl::StatusOr<std::unique_ptr<Daemon>> StartProbed(const std::string& db,
                                                    absl::Duration readiness_cache = absl::ZeroDuration()) {
  DaemonOptions options = OneShot(db);
  options.metrics_listen = "127.0.0.1:0";
  options.readiness_cache = readiness_cache;
  return Daemon::Start(options, store::CheckSchema);
}

TEST(DaemonProbes, AliveAndReadyWhenTheSchemaIsCurrent) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  auto daemon = StartProbed((*db)->uri());
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  auto healthz = testing::HttpGet(Url(**daemon, "/healthz"));
  ASSERT_TRUE(healthz.ok()) << healthz.status();
  EXPECT_EQ(healthz->status, 200);
  auto readyz = testing::HttpGet(Url(**daemon, "/readyz"));
  ASSERT_TRUE(readyz.ok()) << readyz.status();
  EXPECT_EQ(readyz->status, 200) << readyz->body;
  auto unknown = testing::HttpGet(Url(**daemon, "/readyzz"));
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  EXPECT_EQ(unknown->status, 404);
}

TEST(DaemonProbes, NotReadyWhileTheSchemaIsBehindAndSaysWhich) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  auto daemon = StartProbed((*db)->uri());
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  std::string newest;
  {
    auto conn = (*db)->Connect();
    newest = testing::ForgetNewestMigration(*conn);
  }
  auto readyz = testing::HttpGet(Url(**daemon, "/readyz"));
  ASSERT_TRUE(readyz.ok()) << readyz.status();
  EXPECT_EQ(readyz->status, 503);
  EXPECT_THAT(readyz->body, HasSubstr("schema not current"));
  EXPECT_THAT(readyz->body, HasSubstr(newest));
  EXPECT_EQ(readyz->body.find('\n'), readyz->body.size() - 1) << "one line: " << readyz->body;
  auto healthz = testing::HttpGet(Url(**daemon, "/healthz"));
  ASSERT_TRUE(healthz.ok()) << healthz.status();
  EXPECT_EQ(healthz->status, 200);
}

TEST(DaemonProbes, ReadinessIsAnsweredFromItsCacheWithinTheInterval) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  auto daemon = StartProbed((*db)->uri(), absl::Hours(1));
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  auto first = testing::HttpGet(Url(**daemon, "/readyz"));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->status, 200);
  {
    auto conn = (*db)->Connect();
    testing::ForgetNewestMigration(*conn);
  }
  auto cached = testing::HttpGet(Url(**daemon, "/readyz"));
  ASSERT_TRUE(cached.ok()) << cached.status();
  EXPECT_EQ(cached->status, 200) << "the database was asked again within the interval";
}

TEST(DaemonProbes, NotReadyWhileTheDatabaseIsDownAndReadyAgainWhenItReturns) {
  testing::PrivatePostgres pg;
  ASSERT_FALSE(pg.uri().empty());
  DaemonOptions options = OneShot(pg.uri());
  options.migrate = true;
  options.metrics_listen = "127.0.0.1:0";
  options.readiness_cache = absl::ZeroDuration();
  auto daemon = Daemon::Start(options, store::CheckSchema);
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  auto up = testing::HttpGet(Url(**daemon, "/readyz"));
  ASSERT_TRUE(up.ok()) << up.status();
  EXPECT_EQ(up->status, 200) << up->body;

  ASSERT_TRUE(pg.Stop());
  auto down = testing::HttpGet(Url(**daemon, "/readyz"));
  ASSERT_TRUE(down.ok()) << down.status();
  EXPECT_EQ(down->status, 503);
  EXPECT_THAT(down->body, HasSubstr("store unreachable"));
  EXPECT_EQ(down->body.find('\n'), down->body.size() - 1) << "one line: " << down->body;
  auto alive = testing::HttpGet(Url(**daemon, "/healthz"));
  ASSERT_TRUE(alive.ok()) << alive.status();
  EXPECT_EQ(alive->status, 200);

  ASSERT_TRUE(pg.Start());
  auto back = testing::HttpGet(Url(**daemon, "/readyz"));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->status, 200) << back->body;
}

TEST(Readiness, ProbesStopTrustingTheLastAnswerWhenACheckHangs) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  SimulatedClock clock(absl::UnixEpoch());
  std::mutex mu;
  std::condition_variable changed;
  bool entered = false, release = false;
  Readiness readiness((*db)->uri(),
                      [&](PgConnection&) {
                        std::unique_lock<std::mutex> lock(mu);
                        entered = true;
                        changed.notify_all();
                        changed.wait(lock, [&] { return release; });
                        return absl::OkStatus();
                      },
                      absl::Seconds(5), &clock);
  absl::Status hung;
  std::thread checking([&] { hung = readiness.Check(); });
  {
    std::unique_lock<std::mutex> lock(mu);
    changed.wait(lock, [&] { return entered; });
  }
  EXPECT_THAT(std::string(readiness.Check().message()), HasSubstr("still running"));
  clock.Advance(Readiness::kStuckAfter + absl::Seconds(1));
  absl::Status stuck = readiness.Check();
  EXPECT_EQ(stuck.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(stuck.message()), HasSubstr("no answer for 11s"));
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
    changed.notify_all();
  }
  checking.join();
  EXPECT_TRUE(hung.ok()) << hung;
  EXPECT_TRUE(readiness.Check().ok()) << "the finished check's answer is kept again";
}

}  // namespace
}  // namespace fleetcap
