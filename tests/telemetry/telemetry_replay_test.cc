// fleetcap-telemetry-replay, the real program, against a real PostgreSQL and
// the real `fleetcap-ingest prometheus`: a few pods holding devices over a
// short window get exactly one pod-on-device row per minute held, with the
// genai value their series gives, under their pod uid.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_usage.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"
#include "tests/telemetry/duty_cycle_csv.h"
#include "tests/telemetry/telemetry_replay.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

constexpr int64_t kUntilMs = 1'767'232'800'000;  // 2026-01-01T02:00:00Z, the window's end
constexpr int64_t kSinceMs = kUntilMs - 86'400'000;
constexpr int64_t kMinute = 60'000;

std::string At(int64_t ms) { return FormatRfc3339(absl::FromUnixMillis(ms)); }
int64_t On(int hour, int minute, int second = 0) {  // on 2026-01-01
  return kUntilMs - 2 * 3'600'000 + hour * 3'600'000 + minute * kMinute + second * 1000;
}

// Three series of distinct values and lengths (cyclic replay shows), the
// rows of each out of time order, and three bad rows that cost only themselves.
constexpr const char* kCsv =
    "value,timestamp_anon,container_ip\n"
    "12.5,1000,bbb\n"
    "10,1000,aaa\n"
    "not-a-number,1060,aaa\n"
    "11,1060,aaa\n"
    "30,1000,ccc\n"
    "13.5,1060,bbb\n"
    "150,1120,aaa\n"
    "12,1120,aaa\n"
    "31,1060,ccc\n"
    "14.5,1120,bbb\n"
    "32,1120,ccc\n"
    "33,1180,ccc\n"
    "40,1180\n"
    "13,1180,aaa\n"
    "34,1240,ccc\n";

struct Hold {
  std::string uid;
  std::string device;
  int milli;
  int64_t from_ms, to_ms;  // to_ms 0: still held
};

class TelemetryReplayTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    const absl::Time december = absl::FromUnixMillis(kUntilMs) - absl::Hours(31 * 24 + 2);  // 2025-12-01
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"A100", "nvidia", "nvidia.com/gpu"}};
    // Named as `fleetcap-ingest k8s` names them: node/family+index.
    c.devices = {{"n1/gpu0", "n1", 0, "A100", december, std::nullopt},
                 {"n1/gpu1", "n1", 1, "A100", december, std::nullopt},
                 {"n2/gpu0", "n2", 0, "A100", december, std::nullopt}};
    for (const auto& [uid, ns, name] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"uid-a", "ml", "train-a"}, {"uid-b", "ml", "serve-b"}, {"uid-c", "web", "embed-c"}}) {
      c.pods.push_back({{uid, ns, name, "", "Job", name, "", december, std::nullopt, std::nullopt, 0, false}, ""});
    }
    for (const Hold& h : holds_) {
      c.holds.push_back({h.uid, h.device, h.milli, absl::FromUnixMillis(h.from_ms),
                         h.to_ms == 0 ? std::nullopt : std::optional<absl::Time>(absl::FromUnixMillis(h.to_ms))});
    }
    ASSERT_THAT(store::PgLiveInventoryRepository(pool()).Apply(c), IsOk());
    csv_path_ = dir_.Write("duty_cycle.csv", kCsv);
  }

  testing::RunResult Replay(const testing::IngestProcess& ingest, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {fleetcap::testing::kTelemetryReplayBin,
                                     "--db",
                                     db_->uri(),
                                     "--cluster",
                                     "c1",
                                     "--duty-cycle",
                                     csv_path_,
                                     "--remote-write-url",
                                     ingest.write_url(),
                                     "--until",
                                     At(kUntilMs),
                                     "--days",
                                     "1",
                                     "--batch-samples",
                                     "100",
                                     "--wait-written",
                                     absl::StrCat("http://127.0.0.1:", ingest.metrics_port, "/metrics")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::Run(argv, absl::Seconds(120));
  }

  const std::vector<Hold> holds_ = {
      // A whole GPU from 00:10:30 to 00:40: minutes 00:10 .. 00:39.
      {"uid-a", "n1/gpu0", 1000, On(0, 10, 30), On(0, 40)},
      // Half a GPU since 61 minutes before the window (its series read from then), still held: every minute.
      {"uid-b", "n1/gpu1", 500, kSinceMs - 3'660'000, 0},
      // A quarter of the same GPU, 01:00 .. 01:30:20: minutes 01:00 .. 01:30.
      {"uid-c", "n1/gpu1", 250, On(1, 0), On(1, 30, 20)},
      // Two holds of one pod on one device meeting within minute 01:10.
      {"uid-c", "n2/gpu0", 1000, On(1, 5), On(1, 10, 20)},
      {"uid-c", "n2/gpu0", 1000, On(1, 10, 40), On(1, 20)},
      // A pod the store does not know, and a hold that ended before the window.
      {"uid-x", "n2/gpu0", 1000, On(0, 0), On(0, 30)},
      {"uid-a", "n2/gpu0", 1000, kSinceMs - 7'200'000, kSinceMs - 3'600'000},
  };
  testing::TestDir dir_{"replay"};
  std::string csv_path_;
};

TEST_F(TelemetryReplayTest, EveryHeldMinuteGetsOnePodRowWithItsSeriesValue) {
  auto ingest = testing::StartIngest(db_->uri(), "c1");
  ASSERT_THAT(ingest, IsOk());
  const testing::RunResult run = Replay(*ingest);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  // Each bad row is named by its line and skipped; the others are read.
  EXPECT_THAT(run.err, HasSubstr(absl::StrCat(csv_path_, ":4: value \"not-a-number\"")));
  EXPECT_THAT(run.err, HasSubstr(absl::StrCat(csv_path_, ":8: value \"150\"")));
  EXPECT_THAT(run.err, HasSubstr(absl::StrCat(csv_path_, ":14: 2 cells")));
  EXPECT_THAT(run.out, HasSubstr("3 series, 12 rows, 3 bad rows skipped"));
  EXPECT_THAT(run.err, HasSubstr("skipped 1 holds of pods the store does not know"));

  // What each held minute should read, from the same CSV parsed here.
  auto data = testing::ParseDutyCycleCsv(kCsv, "csv");
  ASSERT_THAT(data, IsOk());
  ASSERT_EQ(data->series.size(), 3u);
  EXPECT_EQ(data->series[0].values, (std::vector<double>{10, 11, 12, 13}));  // aaa, in time order
  std::map<std::tuple<std::string, std::string, int64_t>, double> expected;  // (uid, device, minute) -> util
  for (const Hold& h : holds_) {
    if (h.uid == "uid-x") continue;
    const int64_t from = std::max(h.from_ms, kSinceMs), to = h.to_ms == 0 ? kUntilMs : std::min(h.to_ms, kUntilMs);
    const auto& series = data->series[testing::SeriesForPod(h.uid, data->series.size())];
    for (int64_t m = from / kMinute * kMinute; m < to; m += kMinute) {
      expected.emplace(std::make_tuple(h.uid, h.device, m),
                       testing::ReplayedUtilPercent(series, h.from_ms, m, h.milli) / 100);
    }
  }
  // 30 + 1440 + 31 + 15 minutes, the minute two holds meet in counted once.
  ASSERT_EQ(expected.size(), 30u + 1440u + 31u + 15u);

  std::map<std::tuple<std::string, std::string, int64_t>, double> stored;
  for (const auto& r : testing::StoredMinutes(*conn_, "c1")) {
    if (r.pod_uid.empty()) continue;
    const auto key = std::make_tuple(r.pod_uid, r.device_id, r.minute_ms);
    EXPECT_EQ(r.samples, 1) << std::get<0>(key) << " " << std::get<1>(key) << " " << At(std::get<2>(key));
    EXPECT_TRUE(stored.emplace(key, r.util_mean.value()).second);
    if (std::get<0>(key) == "uid-c") {
      EXPECT_EQ(r.pod, "embed-c");
      EXPECT_EQ(r.namespace_, "web");
    }
  }
  ASSERT_EQ(stored.size(), expected.size());
  for (const auto& [key, util] : expected) {
    auto it = stored.find(key);
    ASSERT_NE(it, stored.end()) << std::get<0>(key) << " " << std::get<1>(key) << " " << At(std::get<2>(key));
    EXPECT_NEAR(it->second, util, 1e-12) << std::get<0>(key) << " " << std::get<1>(key) << " " << At(std::get<2>(key));
  }
  // The pods' values are their series', not one value throughout.
  std::set<double> distinct;
  for (const auto& [key, util] : stored) distinct.insert(util);
  EXPECT_GE(distinct.size(), 4u);

  // Run again for the same window: it sees the usage stored and pushes nothing.
  const testing::RunResult again = Replay(*ingest, {"--unless-stored"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_THAT(again.out, HasSubstr("telemetry replay skipped"));
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_accepted_total"),
            static_cast<double>(expected.size()));
}

TEST(DutyCycleCsvTest, AWrongHeaderIsRefusedNamingTheLine) {
  auto data = testing::ParseDutyCycleCsv("ts,value,pod\n1,2,3\n", "dc.csv");
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()), HasSubstr("dc.csv:1: expected the header"));
  EXPECT_FALSE(testing::ParseDutyCycleCsv("value,timestamp_anon,container_ip\nx,1,a\n", "dc.csv").ok());
}

TEST(TelemetryReplayValueTest, APodReadsItsSeriesFromItsHoldsFirstMinuteScaledToItsShare) {
  testing::DutyCycleSeries s{"aaa", {10, 20, 30}};
  const int64_t held_from = 1'767'225'645'000;  // 00:00:45: its first minute is 00:00
  EXPECT_DOUBLE_EQ(testing::ReplayedUtilPercent(s, held_from, 1'767'225'600'000, 1000), 10);
  EXPECT_DOUBLE_EQ(testing::ReplayedUtilPercent(s, held_from, 1'767'225'600'000 + 2 * kMinute, 1000), 30);
  EXPECT_DOUBLE_EQ(testing::ReplayedUtilPercent(s, held_from, 1'767'225'600'000 + 4 * kMinute, 1000), 20);
  EXPECT_DOUBLE_EQ(testing::ReplayedUtilPercent(s, held_from, 1'767'225'600'000 + 4 * kMinute, 250), 5);
}

}  // namespace
}  // namespace fleetcap
