// fleetcap-ingest prometheus's remote_write receiver, a real process on a
// real PostgreSQL: status codes, exactly-once under retries, counters, and
// the published per-pod GPU duty cycle replayed through it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "pqxx/pqxx"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_usage.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using telemetry::EncodeRemoteWrite;
using telemetry::RawSeries;

constexpr int64_t kRemoteT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

// Two minutes of a DCGM exporter: 2 GPUs, a pod on one, 15 s scrapes,
// one stale marker and one blank sentinel.
std::vector<RawSeries> DcgmTwoMinutes() {
  std::vector<RawSeries> out;
  for (int g = 0; g < 2; ++g) {
    telemetry::Labels base = {{"UUID", "GPU-" + std::to_string(g)},
                              {"gpu", std::to_string(g)},
                              {"Hostname", "node-a"},
                              {"modelName", "NVIDIA A100-SXM4-80GB"}};
    if (g == 0) base.insert(base.end(), {{"pod", "train-0"}, {"namespace", "ml"}, {"container", "main"}});
    RawSeries util{base, {}}, power{base, {}};
    util.labels.push_back({"__name__", "DCGM_FI_DEV_GPU_UTIL"});
    power.labels.push_back({"__name__", "DCGM_FI_DEV_POWER_USAGE"});
    for (int i = 0; i < 8; ++i) {
      util.points.push_back({kRemoteT0 + i * 15'000, static_cast<double>((i * 13 + g * 7) % 101)});
      power.points.push_back({kRemoteT0 + i * 15'000, 100.0 + i});
    }
    util.points.push_back({kRemoteT0 + 120'000, std::nan("")});
    util.points.back().value = [] {
      const uint64_t bits = 0x7ff0000000000002ULL;  // Prometheus' stale marker
      double v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }();
    power.points.push_back({kRemoteT0 + 5'000, 9223372036854775792.0});
    out.push_back(util);
    out.push_back(power);
  }
  return out;
}

using RemoteWriteTest = testing::MigratedDatabaseTest;

TEST_F(RemoteWriteTest, BadBodiesAre4xxAndCounted) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--max-body-mb", "8"});
  ASSERT_THAT(ingest, IsOk());
  const std::string good = EncodeRemoteWrite(DcgmTwoMinutes());

  auto garbage = testing::PostRemoteWrite(ingest->write_url(), "GET / HTTP/1.0 -- definitely not snappy");
  ASSERT_THAT(garbage, IsOk());
  EXPECT_EQ(garbage->status, 400) << garbage->body;
  auto truncated = testing::PostRemoteWrite(ingest->write_url(), good.substr(0, good.size() - 7));
  ASSERT_THAT(truncated, IsOk());
  EXPECT_EQ(truncated->status, 400) << truncated->body;
  std::string huge(100u << 20, '\0');
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < huge.size(); i += 8) {
    const uint64_t r = rng();
    std::memcpy(&huge[i], &r, 8);
  }
  auto oversized = testing::PostRemoteWrite(ingest->write_url(), huge);
  ASSERT_THAT(oversized, IsOk());
  EXPECT_EQ(oversized->status, 413) << oversized->body;

  // Still serving, and nothing was stored by the refused bodies.
  auto ok = testing::PostRemoteWrite(ingest->write_url(), good);
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->status, 204) << ok->body;
  EXPECT_EQ(
      *testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total", "code=\"400\""),
      2);
  EXPECT_EQ(
      *testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total", "code=\"413\""),
      1);
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  EXPECT_EQ(testing::TotalSamples(testing::RowsWhere(testing::StoredMinutes(*conn_, "c1"),
                                                     [](const store::UsageMinuteRow& r) { return r.pod_uid.empty(); })),
            2 * 8);
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_accepted_total"), 2 * 16);
}

TEST_F(RemoteWriteTest, RetriesCountOnceAndSamplesForWrittenMinutesAreLate) {
  auto ingest = testing::StartIngest(db_->uri(), "c1");
  ASSERT_THAT(ingest, IsOk());
  const std::string body = EncodeRemoteWrite(DcgmTwoMinutes());
  // Prometheus retries a request it got no answer for.
  for (int i = 0; i < 3; ++i) {
    auto posted = testing::PostRemoteWrite(ingest->write_url(), body);
    ASSERT_THAT(posted, IsOk());
    ASSERT_EQ(posted->status, 204) << posted->body;
  }
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  const auto rows = testing::UsageRows(*conn_, "c1");
  // GPU-0: device + pod rows, GPU-1: device rows; two minutes each.
  ASSERT_EQ(rows.size(), 6u);
  const auto gpu1 = testing::RowsWhere(testing::StoredMinutes(*conn_, "c1"), [](const store::UsageMinuteRow& r) {
    return r.device_id == "GPU-1" && r.minute_ms == 1'767'225'600'000;  // 2026-01-01T00:00:00Z
  });
  ASSERT_EQ(gpu1.size(), 1u);
  const store::UsageMinuteRow& r = gpu1[0];
  double sum = 0, max = 0;
  for (int i = 0; i < 4; ++i) {
    sum += ((i * 13 + 7) % 101) / 100.0;
    max = std::max(max, ((i * 13 + 7) % 101) / 100.0);
  }
  EXPECT_NEAR(r.util_mean.value(), sum / 4, 1e-15);
  EXPECT_DOUBLE_EQ(r.util_max.value(), max);
  EXPECT_DOUBLE_EQ(r.power_watts.value(), 101.5);  // the blank sentinel is not a watt
  EXPECT_EQ(r.samples, 4);

  // Once written, a minute takes no more samples: the same body again is
  // acknowledged, its samples dropped as late, the rows unchanged.
  auto again = testing::PostRemoteWrite(ingest->write_url(), body);
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->status, 204);
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  EXPECT_EQ(testing::UsageRows(*conn_, "c1"), rows);
  const int port = ingest->metrics_port;
  EXPECT_EQ(*testing::ScrapeMetric(port, "fleetcap_telemetry_samples_received_total"), 4 * 36);
  EXPECT_EQ(*testing::ScrapeMetric(port, "fleetcap_telemetry_samples_accepted_total"), 32);
  // A retry finds its minute open (a duplicate) or already written (late):
  // minute 0 closes as soon as a sample 1 s past minute 1's start is in.
  const double duplicate = *testing::ScrapeMetric(port, "fleetcap_telemetry_samples_duplicate_total");
  const double late = *testing::ScrapeMetric(port, "fleetcap_telemetry_samples_dropped_total", "reason=\"late\"");
  EXPECT_EQ(duplicate + late, 3 * 32);
  EXPECT_GE(late, 32);
  EXPECT_EQ(*testing::ScrapeMetric(port, "fleetcap_telemetry_samples_dropped_total", "reason=\"stale\""), 4 * 2);
  EXPECT_EQ(*testing::ScrapeMetric(port, "fleetcap_telemetry_samples_dropped_total", "reason=\"dcgm_blank\""), 4 * 2);
  EXPECT_EQ(*testing::ScrapeMetric(port, "fleetcap_telemetry_remote_write_requests_total", "code=\"204\""), 4);
  EXPECT_EQ(*testing::ScrapeMetric(port, "fleetcap_telemetry_log_latency_seconds_count"), 4);
}

// The published per-pod GPU duty cycle (143 pods, ~22.8 h, ~1 sample a
// minute), as a duty_cycle series per pod, in time order, 5,000 samples a
// request. Timestamps move by whole days to recent ones, which keeps hours.
TEST_F(RemoteWriteTest, GenaiDutyCycleReplayMatchesTheCsvPerPodAndHour) {
  auto csv = testing::Run(
      {"/bin/tar", "-xzOf", std::string(fleetcap::testing::kSharedDataDir) + "/genai/pod_gpu_duty_cycle_anon.tar.gz"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  struct Row {
    int64_t ts_ms;
    std::string pod;
    double value;
  };
  std::vector<Row> data;
  int64_t min_s = INT64_MAX;
  bool header = true;
  for (absl::string_view line : absl::StrSplit(csv.out, '\n')) {
    if (header || line.empty()) {
      header = header && line.empty();
      header = false;
      continue;
    }
    std::vector<std::string> cells = absl::StrSplit(line, ',');
    ASSERT_EQ(cells.size(), 3u) << line;
    const int64_t s = static_cast<int64_t>(std::stod(cells[1]));
    min_s = std::min(min_s, s);
    data.push_back({s * 1000, cells[2], std::stod(cells[0])});
  }
  ASSERT_EQ(data.size(), 157'417u);
  const int64_t now_day = absl::ToUnixSeconds(absl::Now()) / 86'400;
  const int64_t shift_ms = ((now_day - 2) - min_s / 86'400) * 86'400'000;
  std::map<std::pair<std::string, int64_t>, std::pair<double, int>> expected;  // (pod, hour) -> sum, n
  for (auto& row : data) {
    row.ts_ms += shift_ms;
    auto& e = expected[{row.pod, row.ts_ms / 3'600'000}];
    e.first += row.value / 100;
    ++e.second;
  }
  std::stable_sort(data.begin(), data.end(), [](const Row& a, const Row& b) { return a.ts_ms < b.ts_ms; });

  auto ingest = testing::StartIngest(db_->uri(), "genai");
  ASSERT_THAT(ingest, IsOk());
  for (size_t begin = 0; begin < data.size(); begin += 5000) {
    std::map<std::string, RawSeries> by_pod;
    for (size_t i = begin; i < std::min(data.size(), begin + 5000); ++i) {
      RawSeries& s = by_pod[data[i].pod];
      if (s.labels.empty()) {
        s.labels = {{"__name__", "duty_cycle"},
                    {"accelerator_id", "acc-" + data[i].pod.substr(0, 12)},
                    {"pod", data[i].pod},
                    {"namespace", "genai"},
                    {"model", "anonymised-gpu"}};
      }
      s.points.push_back({data[i].ts_ms, data[i].value});
    }
    std::vector<RawSeries> request;
    for (auto& [pod, s] : by_pod) request.push_back(std::move(s));
    auto posted = testing::PostRemoteWrite(ingest->write_url(), EncodeRemoteWrite(request));
    ASSERT_THAT(posted, IsOk());
    ASSERT_EQ(posted->status, 204) << posted->body;
  }
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());

  // The pods' rows by (pod, hour): the sum of util_mean * samples over the
  // rows that have one, and of samples over all.
  std::map<std::pair<std::string, int64_t>, std::pair<double, int64_t>> stored;
  for (const auto& row : testing::StoredMinutes(*conn_, "genai")) {
    if (row.pod_uid.empty()) continue;
    auto& s = stored[{row.pod, row.minute_ms / 3'600'000}];
    if (row.util_mean) s.first += *row.util_mean * row.samples;
    s.second += row.samples;
  }
  ASSERT_EQ(stored.size(), expected.size());
  int64_t total = 0;
  std::set<std::string> pods;
  for (const auto& [key, sums] : stored) {
    auto it = expected.find(key);
    ASSERT_NE(it, expected.end()) << key.first << " hour " << key.second;
    const double want = it->second.first / it->second.second;
    EXPECT_EQ(sums.second, it->second.second);
    const double got = sums.first / sums.second;
    EXPECT_LE(std::abs(got - want), 1e-9 * std::max(std::abs(want), 1e-300)) << it->first.first << " " << want;
    total += sums.second;
    pods.insert(key.first);
  }
  EXPECT_EQ(total, 157'417);
  EXPECT_EQ(pods.size(), 143u);
}

}  // namespace
}  // namespace fleetcap
