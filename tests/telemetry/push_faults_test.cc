// remote_write under faults: fleetcap-ingest killed with SIGKILL mid-stream
// and restarted; PostgreSQL stopped for a while during pushes. The client
// behaves as Prometheus does: it resends whatever was not answered 204.
// Whatever was acknowledged must be stored, nothing counted twice: the
// final rows equal those of a clean run of the same requests.

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "pqxx/pqxx"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/telemetry_support.h"
#include "tests/telemetry/usage_rows.h"

namespace fleetcap {
namespace {

using telemetry::RawSeries;

constexpr int64_t kT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
constexpr int kRequests = 40, kGpus = 20, kSamplesPerRequest = 6;

// Request r carries 6 samples (10 s apart) of each of 20 GPUs' utilisation
// and energy counter, starting at r minutes: requests overlap no sample.
std::string Request(int r) {
  std::vector<RawSeries> series;
  for (int g = 0; g < kGpus; ++g) {
    telemetry::Labels labels = {{"UUID", absl::StrCat("GPU-", g)}, {"Hostname", "n"}};
    RawSeries util{labels, {}}, energy{labels, {}};
    util.labels.push_back({"__name__", "DCGM_FI_DEV_GPU_UTIL"});
    energy.labels.push_back({"__name__", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"});
    for (int i = 0; i < kSamplesPerRequest; ++i) {
      const int64_t t = kT0 + r * 60'000 + i * 10'000;
      util.points.push_back({t, static_cast<double>((r * 31 + g * 7 + i) % 101)});
      energy.points.push_back({t, 1e6 * (r * kSamplesPerRequest + i)});
    }
    series.push_back(util);
    series.push_back(energy);
  }
  return telemetry::EncodeRemoteWrite(series);
}

int64_t StoredSamples(pqxx::connection& conn, const std::string& cluster) {
  return pqxx::nontransaction(conn)
      .exec_params("SELECT count(*) FROM telemetry_samples t JOIN telemetry_series s USING (series_id)"
                   " WHERE s.cluster = $1",
                   cluster)[0][0]
      .as<int64_t>();
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

class PushFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    conn_ = db_->Connect();
    for (int r = 0; r < kRequests; ++r) requests_.push_back(Request(r));
  }
  // The rows a clean run stores, in cluster "clean".
  std::vector<std::string> CleanRows() {
    auto clean = testing::StartIngest(db_->uri(), "clean");
    EXPECT_TRUE(clean.ok()) << clean.status();
    for (const auto& body : requests_) EXPECT_TRUE(PostUntilAccepted(clean->write_url(), body, absl::Seconds(10)));
    return testing::UsageRows(*conn_, "clean");
  }
  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<pqxx::connection> conn_;
  std::vector<std::string> requests_;
};

TEST_F(PushFaultsTest, Sigkill9MidStreamThenRestart) {
  auto ingest = testing::StartIngest(db_->uri(), "c1");
  ASSERT_TRUE(ingest.ok()) << ingest.status();
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

  // Every acknowledged sample survived the kill.
  EXPECT_GE(StoredSamples(*conn_, "c1"), static_cast<int64_t>(acked.size()) * kGpus * 2 * kSamplesPerRequest);

  // Restarted, the client resends what was not acknowledged, plus the last
  // acknowledged batch (its answer might have been lost on the way).
  auto restarted = testing::StartIngest(db_->uri(), "c1");
  ASSERT_TRUE(restarted.ok()) << restarted.status();
  for (int r = acked.back(); r < kRequests; ++r) {
    EXPECT_TRUE(PostUntilAccepted(restarted->write_url(), requests_[r], absl::Seconds(10))) << r;
  }
  EXPECT_EQ(StoredSamples(*conn_, "c1"), int64_t{kRequests} * kGpus * 2 * kSamplesPerRequest);
  EXPECT_EQ(testing::UsageRows(*conn_, "c1"), CleanRows());
  EXPECT_GE(*testing::ScrapeMetric(restarted->metrics_port, "fleetcap_telemetry_samples_duplicate_total"),
            kGpus * 2 * kSamplesPerRequest);
}

}  // namespace
}  // namespace fleetcap

namespace fleetcap {
namespace {

// A PostgreSQL of this test's own (the shared one serves other tests), which
// it stops and starts again on the same port.
class PrivatePostgres {
 public:
  PrivatePostgres() {
    char templ[] = "/tmp/fleetcap-pgfault-XXXXXX";
    dir_ = mkdtemp(templ);
    // Durable settings (not FLEETCAP_PG_FAST): an immediate stop is a crash,
    // and a commit acknowledged before it must survive.
    auto started = testing::Run({"/bin/bash", FLEETCAP_PG_SH, "start", dir_}, absl::Seconds(120));
    uri_ = started.out.substr(0, started.out.find('\n'));
    std::ifstream(dir_ + "/datadir") >> data_;
    std::ifstream(dir_ + "/port") >> port_;
  }
  ~PrivatePostgres() {
    testing::Run({"/bin/bash", FLEETCAP_PG_SH, "stop", dir_});
    testing::Run({"/bin/rm", "-rf", dir_, data_});
  }
  const std::string& uri() const { return uri_; }
  bool Stop() { return PgCtl({"-m", "immediate", "-w", "stop"}); }
  bool Start() {
    return PgCtl({"-l", data_ + "/server.log", "-w", "-o",
                  absl::StrCat("-p ", port_, " -c listen_addresses=127.0.0.1 -c unix_socket_directories=", data_),
                  "start"});
  }

 private:
  bool PgCtl(const std::vector<std::string>& args) {
    std::vector<std::string> argv;
    if (geteuid() == 0) argv = {"/usr/sbin/runuser", "-u", "postgres", "--"};
    argv.push_back("/usr/lib/postgresql/15/bin/pg_ctl");
    argv.push_back("-D");
    argv.push_back(data_);
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = testing::Run(argv, absl::Seconds(60));
    if (r.exit_code != 0) ADD_FAILURE() << "pg_ctl: " << r.out << r.err;
    return r.exit_code == 0;
  }
  std::string dir_, data_, port_, uri_;
};

TEST(PushFaults, PostgresStoppedForTenSecondsWhilePushing) {
  PrivatePostgres pg;
  ASSERT_FALSE(pg.uri().empty());
  auto ingest = testing::StartIngest(pg.uri(), "c1", {"--migrate"});
  ASSERT_TRUE(ingest.ok()) << ingest.status();
  std::vector<std::string> requests;
  for (int r = 0; r < kRequests; ++r) requests.push_back(Request(r));

  std::atomic<int> accepted{0}, refused{0};
  const std::string url = ingest->write_url();
  std::thread poster([&] {
    for (const auto& body : requests) {
      const absl::Time deadline = absl::Now() + absl::Seconds(60);
      while (absl::Now() < deadline) {
        auto r = testing::PostRemoteWrite(url, body);
        if (r.ok() && r->status == 204) {
          ++accepted;
          break;
        }
        ++refused;
        absl::SleepFor(absl::Milliseconds(200));
      }
      absl::SleepFor(absl::Milliseconds(20));
    }
  });
  while (accepted < 8) absl::SleepFor(absl::Milliseconds(5));
  ASSERT_TRUE(pg.Stop());
  const int accepted_at_stop = accepted;
  absl::SleepFor(absl::Seconds(10));
  const int accepted_while_down = accepted - accepted_at_stop;
  ASSERT_TRUE(pg.Start());
  poster.join();

  EXPECT_LE(accepted_while_down, 1);  // at most the one in flight as it stopped
  EXPECT_EQ(accepted, kRequests);
  EXPECT_GT(refused, 0);
  EXPECT_GT(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total",
                                   "code=\"503\""),
            0);
  pqxx::connection conn(pg.uri());
  EXPECT_EQ(StoredSamples(conn, "c1"), int64_t{kRequests} * kGpus * 2 * kSamplesPerRequest);

  auto clean = testing::StartIngest(pg.uri(), "clean");
  ASSERT_TRUE(clean.ok()) << clean.status();
  for (const auto& body : requests) EXPECT_TRUE(PostUntilAccepted(clean->write_url(), body, absl::Seconds(10)));
  EXPECT_EQ(testing::UsageRows(conn, "c1"), testing::UsageRows(conn, "clean"));
}

}  // namespace
}  // namespace fleetcap

namespace fleetcap {
namespace {

// The store stalls (another session holds the cluster's write lock): the
// queue fills and the receiver answers 429 at once, so Prometheus keeps the
// data and retries; once the store moves again everything lands once.
TEST_F(PushFaultsTest, StalledStoreAnswers429ThenAcceptsTheRetry) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--max-queued-samples", "300"});
  ASSERT_TRUE(ingest.ok()) << ingest.status();
  auto blocker = db_->Connect();
  pqxx::nontransaction(*blocker).exec("SELECT pg_advisory_lock(hashtext('fleetcap.telemetry:c1'))");

  long first_status = 0;
  std::thread first([&] {
    auto r = testing::PostRemoteWrite(ingest->write_url(), requests_[0]);  // 240 samples, stuck behind the lock
    first_status = r.ok() ? r->status : -1;
  });
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (absl::Now() < deadline) {
    auto queued = testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_queue_samples");
    if (queued.ok() && *queued == 240) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  auto refused = testing::PostRemoteWrite(ingest->write_url(), requests_[1]);
  ASSERT_TRUE(refused.ok()) << refused.status();
  EXPECT_EQ(refused->status, 429) << refused->body;

  pqxx::nontransaction(*blocker).exec("SELECT pg_advisory_unlock(hashtext('fleetcap.telemetry:c1'))");
  first.join();
  EXPECT_EQ(first_status, 204);
  EXPECT_TRUE(PostUntilAccepted(ingest->write_url(), requests_[1], absl::Seconds(10)));
  EXPECT_EQ(StoredSamples(*conn_, "c1"), 2 * kGpus * 2 * kSamplesPerRequest);
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total",
                                   "code=\"429\""),
            1);
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_queue_samples"), 0);
}

}  // namespace
}  // namespace fleetcap
