// remote_write under faults, with the real client: Prometheus 2.42 scrapes
// the fixture exporter and remote-writes to fleetcap-ingest (cluster
// "push") while fleetcap-ingest is killed and restarted on the same sample
// log, or while its PostgreSQL is stopped for 30 s. Afterwards
// fleetcap-ingest pulls the same span from that Prometheus (cluster
// "pull"): every minute before, during and after the fault must be stored
// by the push path exactly as pulled (tolerance: push_pull_rows.h), nothing
// lost and nothing counted twice. Prometheus keeps what was not answered
// 2xx in its WAL and sends it again; fleetcap keeps what it acknowledged in
// its sample log.
//
// The fake clock. Prometheus refuses scraped samples stamped more than 10
// minutes ahead of its own clock, and remote-writes only samples newer than
// its start. So the fixture's clock starts a few seconds ahead of real time
// and runs 6x (3 fake seconds a scrape, a scrape every 500 ms, 20 samples a
// minute): 100 s of scraping end about 500 s ahead. (The end-to-end test's
// 20x would pass the 10 minutes within half a minute.)
//
// Settle. The receiver closes a device's minute once the device's newest
// sample is --settle past the minute's end (event time), or once no sample
// of the device came for --settle of wall time; a sample arriving for a
// closed minute is late and dropped. Prometheus may spread one device's
// series over several shards, each sending on its own (every 500 ms here)
// and retrying on its own after an outage (backing off up to 1 s), so
// samples of one device may arrive out of their time order by a send
// interval and a backoff, about a second and a half. With the
// 1 s settle of the other tests (a sixth of a real second here) a minute
// would close on the first sample of the next one and a sample of a shard
// one request behind would be late: push would differ from pull by timing
// alone. --settle 30s keeps a minute open until 30 fake seconds (5 real
// seconds, 10 scrapes) of newer samples arrived, beyond any such skew, and
// its wall-time rule (30 real seconds without a sample of the device) never
// fires: the exporter is scraped throughout, and a restarted receiver
// counts from its replay. The minutes compared are therefore exactly those
// the event-time rule closed: from the first whole minute (t0's partial
// minute only gives it the energy counter's previous sample) up to a bound
// the fake clock has passed by the settle, and the rows are polled with a
// deadline until written.

#include <signal.h>
#include <stdlib.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "pqxx/pqxx"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/fixture_exporter.h"
#include "tests/telemetry/private_postgres.h"
#include "tests/telemetry/prometheus_process.h"
#include "tests/telemetry/push_pull_rows.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

constexpr int64_t kMinuteMs = 60'000;
constexpr int64_t kPushStepMs = 3'000;  // 6x real time; see above
constexpr int64_t kSamplesPerMinute = kMinuteMs / kPushStepMs;
constexpr int64_t kSettleMs = 30'000;  // in fake time; see above
constexpr const char* kSettle = "30s";
constexpr absl::Duration kLead = absl::Seconds(15);  // for Prometheus to start
// GPU 0 (device + pod), GPU 1, the TPU (device + pod), the AMD GPU.
constexpr int64_t kRowsPerMinute = 6;

int64_t MinuteStart(int64_t ms) { return ms / kMinuteMs * kMinuteMs; }

bool WaitForFakeTime(const testing::FixtureExporter& exporter, int64_t ms, absl::Duration patience) {
  const absl::Time deadline = absl::Now() + patience;
  while (exporter.next_ms() < ms && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(50));
  return exporter.next_ms() >= ms;
}

// Waits until `cluster` holds `rows` rows of the minute starting at `minute_s`.
bool WaitForMinuteRows(pqxx::connection& conn, const std::string& cluster, int64_t minute_s, size_t rows,
                       absl::Duration patience) {
  const absl::Time deadline = absl::Now() + patience;
  for (;;) {
    if (testing::RowsByKey(conn, cluster, minute_s, minute_s + 60).size() >= rows) return true;
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(100));
  }
}

// A counter or gauge of fleetcap's or Prometheus' /metrics; absent is 0.
double Metric(int port, const std::string& name, const std::string& label_filter = "") {
  auto value = testing::ScrapeMetric(port, name, label_filter);
  if (absl::IsNotFound(value.status())) return 0;
  EXPECT_THAT(value, IsOk());
  return value.value_or(-1);
}

double Answered(const testing::IngestProcess& ingest, const std::string& code_prefix) {
  return Metric(ingest.metrics_port, "fleetcap_telemetry_remote_write_requests_total",
                absl::StrCat("code=\"", code_prefix));
}

double LateSamples(const testing::IngestProcess& ingest) {
  return Metric(ingest.metrics_port, "fleetcap_telemetry_samples_dropped_total", "reason=\"late\"");
}

int64_t SumSamples(const testing::RowsByKeyMap& rows) {
  int64_t total = 0;
  for (const auto& [key, row] : rows) total += testing::RowSamples(row);
  return total;
}

// The fixture scraped by a Prometheus that remote-writes to `remote_write_port`.
struct Scraped {
  int64_t t0 = 0;        // the fake time of the first scrape
  int64_t first_ms = 0;  // the first whole fake minute
  std::unique_ptr<testing::FixtureExporter> exporter;
  std::unique_ptr<testing::PrometheusProcess> prom;
  ~Scraped() {
    // Killed: stopped gently, Prometheus would wait a minute to flush its
    // queue to a receiver that may be gone already.
    if (prom != nullptr && prom->process != nullptr) prom->process->Stop(SIGKILL);
  }
};

void StartScraping(int remote_write_port, Scraped* out, const std::string& remote_write_extra = "") {
  out->t0 = absl::ToUnixMillis(absl::Now() + kLead);
  out->first_ms = MinuteStart(out->t0) + kMinuteMs;
  out->exporter = std::make_unique<testing::FixtureExporter>(out->t0, kPushStepMs);
  ASSERT_TRUE(out->exporter->Start());
  auto prom =
      testing::StartPrometheus(testing::PushPullConfig(out->exporter->port(), remote_write_port, remote_write_extra));
  ASSERT_THAT(prom, IsOk());
  out->prom = std::move(*prom);
  // Every sample is newer than Prometheus' start, so all are remote-written.
  ASSERT_LT(absl::Now(), absl::FromUnixMillis(out->t0)) << "Prometheus took over " << kLead << " to start";
}

// Once the fake clock passed `to_ms` by the settle: pulls [MinuteStart(t0),
// to_ms) into cluster "pull" and requires the push rows of
// [first_ms, to_ms) to equal the pulled ones.
void ExpectPushEqualsPull(pqxx::connection& conn, const std::string& db_uri, const Scraped& scraped, int64_t to_ms) {
  ASSERT_TRUE(WaitForFakeTime(*scraped.exporter, to_ms + kSettleMs, absl::Seconds(60)));
  // Every scrape so far was taken in (none more than 10 minutes ahead).
  ASSERT_EQ(Metric(scraped.prom->port, "prometheus_target_scrapes_sample_out_of_bounds_total"), 0)
      << "the fake clock ran too far ahead of Prometheus' clock: a slow machine?";
  auto pulled = testing::PullOnce(db_uri, scraped.prom->url(), MinuteStart(scraped.t0), to_ms);
  ASSERT_EQ(pulled.exit_code, 0) << pulled.err;
  const int64_t from_s = scraped.first_ms / 1000, to_s = to_ms / 1000;
  const auto pull_rows = testing::RowsByKey(conn, "pull", from_s, to_s);
  ASSERT_EQ(static_cast<int64_t>(pull_rows.size()), (to_s - from_s) / 60 * kRowsPerMinute);
  const auto push_rows = testing::WaitForPushRows(conn, pull_rows, from_s, to_s, absl::Seconds(45));
  testing::ExpectSameRows(pull_rows, push_rows);
  // Nothing counted twice, nothing lost: the samples are Prometheus' own,
  // row by row (above) and in all.
  EXPECT_EQ(SumSamples(push_rows), SumSamples(pull_rows));
  for (const auto& [key, row] : pull_rows) EXPECT_GE(testing::RowSamples(row), kSamplesPerMinute / 2) << key;
}

TEST(PrometheusPushFaults, KilledMidStreamAndRestartedOnTheSameLog) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  // A fixed port and sample log: the restarted receiver is where Prometheus
  // keeps sending, and finds what its predecessor acknowledged.
  const int port = testing::FreePort();
  const testing::TestDir wal("wal");
  const std::vector<std::string> flags = {
      "--remote-write-listen", absl::StrCat("127.0.0.1:", port), "--wal-dir", wal.path(), "--settle", kSettle};
  auto ingest = testing::StartIngest((*db)->uri(), "push", flags);
  ASSERT_THAT(ingest, IsOk());
  Scraped scraped;
  ASSERT_NO_FATAL_FAILURE(StartScraping(port, &scraped));
  const testing::FixtureExporter& exporter = *scraped.exporter;

  // Killed once the first whole minute is written: the minutes after it
  // were acknowledged but are still open, held only by the sample log, and
  // Prometheus has a request in flight or about to be.
  ASSERT_TRUE(WaitForMinuteRows(*conn, "push", scraped.first_ms / 1000, kRowsPerMinute, absl::Seconds(60)))
      << "nothing written; stderr: " << ingest->process->Stderr();
  ASSERT_EQ(Answered(*ingest, "5"), 0);
  ingest->process->Stop(SIGKILL);
  const int64_t killed_ms = exporter.next_ms();
  // The minute of the kill less the settle could not have closed (its end
  // plus the settle is past every sample scraped so far): acknowledged,
  // unwritten.
  const int64_t open_s = MinuteStart(killed_ms - kSettleMs) / 1000;
  ASSERT_LT(scraped.first_ms / 1000, open_s);
  EXPECT_TRUE(testing::RowsByKey(*conn, "push", open_s, open_s + 60).empty());

  // Dead for 8 s (48 fake seconds): Prometheus keeps scraping into its WAL
  // and retries the receiver (100 ms doubling to 1 s).
  absl::SleepFor(absl::Seconds(8));
  std::vector<std::string> restart_flags = flags;
  restart_flags.insert(restart_flags.end(), {"--log-level", "info"});  // to see the replay
  auto restarted = testing::StartIngest((*db)->uri(), "push", restart_flags);
  ASSERT_THAT(restarted, IsOk());
  const int64_t restarted_ms = exporter.next_ms();

  // Compared: the minutes before the kill, those the outage touched, and a
  // whole minute after the restart.
  const int64_t to_ms = MinuteStart(restarted_ms) + 2 * kMinuteMs;
  ExpectPushEqualsPull(*conn, (*db)->uri(), scraped, to_ms);

  // Prometheus did send again what the dead receiver never answered...
  const double retried = Metric(scraped.prom->port, "prometheus_remote_storage_samples_retried_total");
  EXPECT_GT(retried, 0);
  EXPECT_EQ(Metric(scraped.prom->port, "prometheus_remote_storage_samples_failed_total"), 0);
  // ...the restarted receiver replayed its log from the checkpoint, and the
  // two overlapped without a sample arriving for a closed minute (those
  // would be dropped as late) or any refusal.
  const std::string err = restarted->process->Stderr();
  EXPECT_THAT(err, HasSubstr("replayed")) << err;
  EXPECT_EQ(LateSamples(*restarted), 0);
  // What it received twice (logged by its predecessor, whose answer was
  // lost) was resent by Prometheus, and deduplicated, not added.
  EXPECT_LE(Metric(restarted->metrics_port, "fleetcap_telemetry_samples_duplicate_total"), retried);
  EXPECT_EQ(Answered(*restarted, "5"), 0);
  EXPECT_EQ(Answered(*restarted, "429"), 0);
  EXPECT_GT(Answered(*restarted, "204"), 0);
}

TEST(PrometheusPushFaults, PostgresStoppedForThirtySecondsWhilePrometheusPushes) {
  testing::PrivatePostgres pg;
  ASSERT_FALSE(pg.uri().empty());
  auto ingest = testing::StartIngest(pg.uri(), "push", {"--migrate", "--settle", kSettle});
  ASSERT_THAT(ingest, IsOk());
  Scraped scraped;
  ASSERT_NO_FATAL_FAILURE(StartScraping(ingest->remote_write_port, &scraped));
  const testing::FixtureExporter& exporter = *scraped.exporter;

  // Stopped once the first whole minute is written: rows flow before the outage.
  {
    pqxx::connection conn(pg.uri());
    ASSERT_TRUE(WaitForMinuteRows(conn, "push", scraped.first_ms / 1000, kRowsPerMinute, absl::Seconds(60)))
        << "nothing written; stderr: " << ingest->process->Stderr();
  }
  ASSERT_TRUE(pg.Stop());
  const int64_t stopped_ms = exporter.next_ms();
  absl::SleepFor(absl::Seconds(1));  // a write that committed just before the stop is counted
  const double rows_at_stop = Metric(ingest->metrics_port, "fleetcap_telemetry_minute_rows_written_total");
  // 30 s of outage: every 10 s, more requests answered 204 (Prometheus
  // sends every 500 ms), none refused.
  double ok_before = Answered(*ingest, "204");
  for (int third = 0; third < 3; ++third) {
    absl::SleepFor(absl::Seconds(third == 0 ? 9 : 10));
    const double ok = Answered(*ingest, "204");
    EXPECT_GE(ok - ok_before, 5) << "too few requests acknowledged in the outage's seconds " << third * 10 << "..";
    ok_before = ok;
  }
  EXPECT_EQ(Answered(*ingest, "5"), 0);
  EXPECT_EQ(Answered(*ingest, "429"), 0);
  // The store was indeed away: nothing written, the log past its
  // checkpoint growing.
  EXPECT_EQ(Metric(ingest->metrics_port, "fleetcap_telemetry_minute_rows_written_total"), rows_at_stop);
  EXPECT_GT(Metric(ingest->metrics_port, "fleetcap_telemetry_log_unwritten_bytes"), 0);
  ASSERT_TRUE(pg.Start());
  const int64_t started_ms = exporter.next_ms();

  // Compared: the minutes before the stop, the three fake minutes of the
  // outage, and a whole minute after the restart.
  const int64_t to_ms = MinuteStart(started_ms) + 2 * kMinuteMs;
  ASSERT_LT(scraped.first_ms, MinuteStart(stopped_ms));
  pqxx::connection conn(pg.uri());
  ExpectPushEqualsPull(conn, pg.uri(), scraped, to_ms);

  // Prometheus gave up on no sample, and no sample came late.
  EXPECT_EQ(Metric(scraped.prom->port, "prometheus_remote_storage_samples_failed_total"), 0);
  EXPECT_EQ(LateSamples(*ingest), 0);
  EXPECT_EQ(Answered(*ingest, "5"), 0);
  EXPECT_EQ(Answered(*ingest, "429"), 0);
  EXPECT_GT(Metric(ingest->metrics_port, "fleetcap_telemetry_minute_rows_written_total"), rows_at_stop);
}

// Prometheus' own client with `bearer_token_file`: every request carries
// the token and is taken in; none is refused.
TEST(PrometheusPushFaults, PrometheusPushesWithABearerTokenFile) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  const testing::TestDir secrets("secrets");
  const std::string token_file = secrets.path() + "/token";
  std::ofstream(token_file) << "prometheus-push-token\n";
  auto ingest =
      testing::StartIngest((*db)->uri(), "push", {"--settle", kSettle, "--remote-write-bearer-token-file", token_file});
  ASSERT_THAT(ingest, IsOk());
  Scraped scraped;
  ASSERT_NO_FATAL_FAILURE(
      StartScraping(ingest->remote_write_port, &scraped, absl::StrCat("    bearer_token_file: ", token_file, "\n")));
  ASSERT_TRUE(WaitForMinuteRows(*conn, "push", scraped.first_ms / 1000, kRowsPerMinute, absl::Seconds(60)))
      << "nothing written; stderr: " << ingest->process->Stderr();
  EXPECT_GT(Answered(*ingest, "204"), 0);
  EXPECT_EQ(Answered(*ingest, "401"), 0);
  EXPECT_EQ(Metric(scraped.prom->port, "prometheus_remote_storage_samples_failed_total"), 0);
}

}  // namespace
}  // namespace fleetcap
