// remote_write under faults: fleetcap-ingest killed with SIGKILL mid-stream
// and restarted on the same sample log; PostgreSQL stopped for 30 s during
// pushes; the store stalled until the log bound is reached. The client
// behaves as Prometheus does: it resends whatever was not answered 204.
// Whatever was acknowledged must be stored, nothing counted twice: the
// final rows equal those of a clean run of the same requests.

#include <signal.h>
#include <stdlib.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "pqxx/pqxx"
#include "tests/support/build_paths.h"
#include "tests/support/pg_sessions.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_usage.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/private_postgres.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using telemetry::RawSeries;
using ::testing::HasSubstr;

constexpr int64_t kPushT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
constexpr int kRequests = 40, kGpus = 20, kSamplesPerRequest = 6;

// Request r carries 6 samples (10 s apart) of each of 20 GPUs' utilisation
// and energy counter, in minute r: requests overlap no sample.
std::string Request(int r) {
  std::vector<RawSeries> series;
  for (int g = 0; g < kGpus; ++g) {
    telemetry::Labels labels = {{"UUID", absl::StrCat("GPU-", g)}, {"Hostname", "n"}};
    RawSeries util{labels, {}}, energy{labels, {}};
    util.labels.push_back({"__name__", "DCGM_FI_DEV_GPU_UTIL"});
    energy.labels.push_back({"__name__", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"});
    for (int i = 0; i < kSamplesPerRequest; ++i) {
      const int64_t t = kPushT0 + r * 60'000 + i * 10'000;
      util.points.push_back({t, static_cast<double>((r * 31 + g * 7 + i) % 101)});
      energy.points.push_back({t, 1e6 * (r * kSamplesPerRequest + i)});
    }
    series.push_back(util);
    series.push_back(energy);
  }
  return telemetry::EncodeRemoteWrite(series);
}

// Utilisation samples in the cluster's device rows.
int64_t StoredSamples(pqxx::connection& conn, const std::string& cluster) {
  return testing::TotalSamples(testing::RowsWhere(testing::StoredMinutes(conn, cluster),
                                                  [](const store::UsageMinuteRow& r) { return r.pod_uid.empty(); }));
}

// Posts until 204, like Prometheus' queue: retries 5xx, 429 and network errors.
bool PostUntilAccepted(const std::string& url, const std::string& body, absl::Duration patience) {
  const absl::Time deadline = absl::Now() + patience;
  while (absl::Now() < deadline) {
    auto r = testing::PostRemoteWrite(url, body);
    if (r.ok() && r->status == 204) return true;
    if (r.ok() && r->status >= 400 && r->status < 500 && r->status != 429) return false;
    absl::SleepFor(absl::Milliseconds(100));
  }
  return false;
}

// The rows a clean run of `requests` stores, in cluster "clean".
std::vector<std::string> CleanRows(const std::string& uri, pqxx::connection& conn,
                                   const std::vector<std::string>& requests) {
  auto clean = testing::StartIngest(uri, "clean");
  EXPECT_THAT(clean, IsOk());
  for (const auto& body : requests) EXPECT_TRUE(PostUntilAccepted(clean->write_url(), body, absl::Seconds(10)));
  EXPECT_THAT(testing::WaitUntilPushWritten(*clean), IsOk());
  return testing::UsageRows(conn, "clean");
}

class PushFaultsTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    testing::MigratedDatabaseTest::SetUp();
    for (int r = 0; r < kRequests; ++r) requests_.push_back(Request(r));
  }
  std::vector<std::string> requests_;
};

TEST_F(PushFaultsTest, Sigkill9MidStreamThenRestartOnTheSameLog) {
  const testing::TestDir owned("wal");
  const std::string& wal = owned.path();
  // A long settle: at the kill most acknowledged minutes are still open,
  // held only by the sample log.
  const std::vector<std::string> flags = {"--wal-dir", wal, "--settle", "5m"};
  auto ingest = testing::StartIngest(db_->uri(), "c1", flags);
  ASSERT_THAT(ingest, IsOk());
  std::vector<int> acked;  // written by the poster only until it is joined
  std::atomic<int> acked_count{0};
  const std::string url = ingest->write_url();
  std::thread poster([&] {
    for (int r = 0; r < kRequests; ++r) {
      auto result = testing::PostRemoteWrite(url, requests_[r]);
      if (!result.ok()) break;  // the receiver is gone
      if (result->status == 204) {
        acked.push_back(r);
        ++acked_count;
      }
    }
  });
  while (acked_count < 12) absl::SleepFor(absl::Milliseconds(1));
  ingest->process->Stop(SIGKILL);
  poster.join();
  ASSERT_GE(acked.size(), 12u);
  ASSERT_LT(acked.size(), static_cast<size_t>(kRequests)) << "killed too late to be mid-stream";

  // Restarted on the same log with a short settle: every acknowledged
  // sample comes back from the log into the rows.
  auto restarted = testing::StartIngest(db_->uri(), "c1", {"--wal-dir", wal, "--settle", "1s"});
  ASSERT_THAT(restarted, IsOk());
  ASSERT_THAT(testing::WaitUntilPushWritten(*restarted), IsOk());
  EXPECT_GE(StoredSamples(*conn_, "c1"), static_cast<int64_t>(acked.size()) * kGpus * kSamplesPerRequest);

  // The client resends what was not acknowledged, plus the last
  // acknowledged request (its answer might have been lost on the way).
  for (int r = acked.back(); r < kRequests; ++r) {
    EXPECT_TRUE(PostUntilAccepted(restarted->write_url(), requests_[r], absl::Seconds(10))) << r;
  }
  ASSERT_THAT(testing::WaitUntilPushWritten(*restarted), IsOk());
  EXPECT_EQ(StoredSamples(*conn_, "c1"), int64_t{kRequests} * kGpus * kSamplesPerRequest);
  EXPECT_EQ(testing::UsageRows(*conn_, "c1"), CleanRows(db_->uri(), *conn_, requests_));
}

// A log record damaged on disk after it was acknowledged, with another after
// it: the ingest refuses to start, naming the file, rather than skip what it
// acknowledged. (A damaged last record is a torn append, never acknowledged:
// it is cut, as sample_log_test.cc checks.)
TEST_F(PushFaultsTest, ADamagedLogRecordStopsTheStartNamingTheFile) {
  const testing::TestDir owned("wal");
  const std::vector<std::string> flags = {"--wal-dir", owned.path(), "--settle", "5m"};
  {
    auto ingest = testing::StartIngest(db_->uri(), "c1", flags);
    ASSERT_THAT(ingest, IsOk());
    EXPECT_TRUE(PostUntilAccepted(ingest->write_url(), requests_[0], absl::Seconds(10)));
    EXPECT_TRUE(PostUntilAccepted(ingest->write_url(), requests_[1], absl::Seconds(10)));
    ingest->process->Stop(SIGKILL);
  }
  const std::string segment = owned.path() + "/00000000000000000000.log";
  const int fd = ::open(segment.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::pwrite(fd, "\xff\xff\xff\xff", 4, 40), 4);  // inside the first record's body
  ::close(fd);
  auto restarted = testing::Run({fleetcap::testing::kIngestBin, "prometheus", "--db", db_->uri(), "--cluster", "c1",
                                 "--remote-write-listen", "127.0.0.1:0", "--wal-dir", owned.path()},
                                absl::Seconds(60));
  EXPECT_EQ(restarted.exit_code, 1);
  EXPECT_THAT(restarted.err, HasSubstr("checksum mismatch")) << restarted.err;
  EXPECT_THAT(restarted.err, HasSubstr(segment)) << restarted.err;
}

TEST(PushFaults, PostgresStoppedForThirtySecondsWhilePushing) {
  testing::PrivatePostgres pg;
  ASSERT_FALSE(pg.uri().empty());
  auto ingest = testing::StartIngest(pg.uri(), "c1", {"--migrate"});
  ASSERT_THAT(ingest, IsOk());
  std::vector<std::string> requests;
  for (int r = 0; r < kRequests; ++r) requests.push_back(Request(r));

  std::atomic<int> accepted{0}, refused{0};
  const std::string url = ingest->write_url();
  std::thread poster([&] {
    for (const auto& body : requests) {
      const absl::Time deadline = absl::Now() + absl::Seconds(90);
      while (absl::Now() < deadline) {
        auto r = testing::PostRemoteWrite(url, body);
        if (r.ok() && r->status == 204) {
          ++accepted;
          break;
        }
        ++refused;
        absl::SleepFor(absl::Milliseconds(200));
      }
      absl::SleepFor(absl::Milliseconds(500));
    }
  });
  while (accepted < 8) absl::SleepFor(absl::Milliseconds(5));
  ASSERT_TRUE(pg.Stop());
  const int accepted_at_stop = accepted;
  absl::SleepFor(absl::Seconds(30));
  const int accepted_while_down = accepted - accepted_at_stop;
  ASSERT_TRUE(pg.Start());
  poster.join();

  // The sample log kept acknowledging while the store was away: every
  // request after the stop (one every ~0.5 s) was answered 204 at once.
  EXPECT_EQ(accepted_while_down, kRequests - accepted_at_stop);
  EXPECT_EQ(accepted, kRequests);
  EXPECT_EQ(refused, 0);
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  pqxx::connection conn(pg.uri());
  EXPECT_EQ(StoredSamples(conn, "c1"), int64_t{kRequests} * kGpus * kSamplesPerRequest);
  EXPECT_EQ(testing::UsageRows(conn, "c1"), CleanRows(pg.uri(), conn, requests));
}

// The store stalls (another session holds the cluster's write lock): the
// sample log grows to its bound and the receiver answers 503 (which, unlike
// 429, Prometheus always retries), so Prometheus keeps the data and retries; once the store moves again everything
// lands once.
TEST_F(PushFaultsTest, StalledStoreAnswers503AtTheLogBoundThenAcceptsTheRetry) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--max-unwritten-mb", "1", "--settle", "0s"});
  ASSERT_THAT(ingest, IsOk());
  auto blocker = db_->Connect();
  testing::LockAdvisory(*blocker, "fleetcap.telemetry:c1");

  // Minutes of 20 GPUs, a request a minute, until the receiver refuses.
  std::vector<std::string> sent;
  long refused_status = 0;
  for (int r = 0; r < 2000 && refused_status == 0; ++r) {
    std::string body = Request(r);
    auto posted = testing::PostRemoteWrite(ingest->write_url(), body);
    ASSERT_THAT(posted, IsOk());
    if (posted->status == 204) {
      sent.push_back(std::move(body));
    } else {
      refused_status = posted->status;
      sent.push_back(std::move(body));  // to be retried
    }
  }
  ASSERT_EQ(refused_status, 503);
  EXPECT_GT(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_log_unwritten_bytes"), 1 << 20);

  testing::UnlockAdvisory(*blocker, "fleetcap.telemetry:c1");
  EXPECT_TRUE(PostUntilAccepted(ingest->write_url(), sent.back(), absl::Seconds(30)));
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  EXPECT_EQ(StoredSamples(*conn_, "c1"), static_cast<int64_t>(sent.size()) * kGpus * kSamplesPerRequest);
  EXPECT_GE(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_backpressure_total"), 1);
  EXPECT_EQ(
      *testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_backpressure_total"),
      *testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total", "code=\"503\""));
  EXPECT_EQ(testing::UsageRows(*conn_, "c1"), CleanRows(db_->uri(), *conn_, sent));
}

}  // namespace
}  // namespace fleetcap
