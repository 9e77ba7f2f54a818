// PullIngester on fakes: a Prometheus that answers the per-minute queries
// from a table, the in-memory usage store and a simulated clock.

#include "ingest/telemetry/pull_ingester.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "store/memory_usage_repository.h"

namespace fleetcap::telemetry {
namespace {

constexpr int64_t kT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
constexpr int64_t kMinute = 60'000;

absl::Time At(int minutes) { return absl::FromUnixMillis(kT0 + minutes * kMinute); }

// Answers `function(metric[59999ms])` from a table of per-minute values of
// one series, evaluated at the minute's last millisecond as Prometheus does.
class FakePrometheus : public RangeQuerier {
 public:
  void Set(const std::string& function, const std::string& metric, const Labels& labels, int minute, double value) {
    auto& series = answers_[function + "(" + metric + "[59999ms])"];
    for (auto& s : series) {
      if (s.labels == labels) {
        s.points.push_back({kT0 + minute * kMinute + 59'999, value});
        return;
      }
    }
    series.push_back({labels, {{kT0 + minute * kMinute + 59'999, value}}});
  }
  // A gauge minute: `n` samples with these sum, max and min.
  void Gauge(const std::string& metric, const Labels& labels, int minute, double n, double sum, double max,
             double min) {
    Set("count_over_time", metric, labels, minute, n);
    Set("sum_over_time", metric, labels, minute, sum);
    Set("max_over_time", metric, labels, minute, max);
    Set("min_over_time", metric, labels, minute, min);
  }

  absl::StatusOr<std::vector<RangeSeries>> QueryRange(const std::string& query, absl::Time start, absl::Time end,
                                                      absl::Duration step) override {
    queries.push_back(query);
    if (fail) return absl::UnavailableError("prometheus: injected failure");
    EXPECT_EQ(step, absl::Minutes(1));
    std::vector<RangeSeries> out;
    for (const RangeSeries& s : answers_[query]) {
      RangeSeries in_range{s.labels, {}};
      for (const Point& p : s.points) {
        const absl::Time t = absl::FromUnixMillis(p.ts_ms);
        if (t >= start && t <= end) in_range.points.push_back(p);
      }
      if (!in_range.points.empty()) out.push_back(in_range);
    }
    return out;
  }

  std::vector<std::string> queries;
  bool fail = false;

 private:
  std::map<std::string, std::vector<RangeSeries>> answers_;
};

const Labels kGpu0 = {{"UUID", "GPU-0"}, {"Hostname", "node-1"}, {"modelName", "H100"}};
const Labels kGpu0Pod = {
    {"UUID", "GPU-0"}, {"Hostname", "node-1"}, {"modelName", "H100"}, {"namespace", "ml"}, {"pod", "train-0"}};

MetricMapping Mapping() {
  auto mapping = ParseMetricMapping(R"(
metrics:
  gpu_util: {field: util, scale: 0.01}
  gpu_energy: {field: energy, scale: 0.001, counter: true}
labels:
  device: [UUID]
  node: [Hostname]
  model: [modelName]
  namespace: [namespace]
  pod: [pod]
)",
                                    "test.yaml");
  EXPECT_TRUE(mapping.ok()) << mapping.status();
  return *mapping;
}

class PullIngesterTest : public ::testing::Test {
 protected:
  PullIngesterTest() : clock_(At(10)), metrics_(registry_) {
    options_.since = At(0);
    options_.settle = absl::Minutes(5);
  }
  PullIngester& Ingester() {
    ingester_ =
        std::make_unique<PullIngester>(&prometheus_, &mapping_, &writer_, &store_, &metrics_, &clock_, options_);
    return *ingester_;
  }
  std::map<std::string, absl::Time> Watermarks() { return *store_.Watermarks("c1"); }
  double Dropped(const std::string& reason) { return metrics_.DroppedBy("pull", reason).Value(); }

  SimulatedClock clock_;
  prometheus::Registry registry_;
  TelemetryMetrics metrics_;
  MetricMapping mapping_ = Mapping();
  FakePrometheus prometheus_;
  store::MemoryUsageRepository store_{{400, &clock_}};
  UsageWriter writer_{&store_, "c1"};
  PullOptions options_;
  std::unique_ptr<PullIngester> ingester_;
};

TEST_F(PullIngesterTest, StoresEveryMinuteAndKeepsTheSettleWindowBehindTheWatermark) {
  for (int m = 0; m < 10; ++m) prometheus_.Gauge("gpu_util", kGpu0, m, 6, 300, 80, 20);
  prometheus_.Set("count_over_time", "gpu_energy", kGpu0, 0, 6);
  prometheus_.Set("last_over_time", "gpu_energy", kGpu0, 0, 5'000);
  prometheus_.Set("count_over_time", "gpu_energy", kGpu0, 1, 6);
  prometheus_.Set("last_over_time", "gpu_energy", kGpu0, 1, 9'000);

  PullIngester& ingester = Ingester();
  auto report = ingester.RunOnce();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->from, At(0));
  EXPECT_EQ(report->to, At(10));
  EXPECT_EQ(report->rows, 10);
  EXPECT_EQ(report->chunks, 1);
  EXPECT_EQ(report->queries, 6);  // count and last of the counter; count, sum, max, min of the gauge
  EXPECT_EQ(prometheus_.queries[2], "count_over_time(gpu_util[59999ms])");
  const auto rows = store_.Rows("c1");
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows[0].device_id, "GPU-0");
  EXPECT_EQ(rows[0].node, "node-1");
  EXPECT_EQ(rows[0].minute_ms, kT0);
  EXPECT_DOUBLE_EQ(rows[0].util_mean.value_or(-1), 0.5);
  EXPECT_DOUBLE_EQ(rows[0].util_max.value_or(-1), 0.8);
  EXPECT_DOUBLE_EQ(rows[0].energy_joules.value_or(-1), 0);  // no minute before the first
  EXPECT_DOUBLE_EQ(rows[1].energy_joules.value_or(-1), 4);  // (9000 - 5000) mJ
  EXPECT_EQ(rows[0].samples, 6);
  // Minutes inside the settle window (5 .. 9) are fetched again next cycle.
  EXPECT_EQ(Watermarks(), (std::map<std::string, absl::Time>{{"gpu_energy", At(5)}, {"gpu_util", At(5)}}));
  EXPECT_EQ(metrics_.Received("pull").Value(), 72);
  EXPECT_EQ(metrics_.MinuteRows().Value(), 10);

  clock_.Advance(absl::Minutes(3));
  report = ingester.RunOnce();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->from, At(5));
  EXPECT_EQ(report->to, At(13));
  EXPECT_EQ(store_.Rows("c1").size(), 10u);  // the same minutes, replaced
  EXPECT_EQ(Watermarks().at("gpu_util"), At(8));
}

TEST_F(PullIngesterTest, PodSeriesJoinThePodAndAddUpToTheDevice) {
  prometheus_.Gauge("gpu_util", kGpu0Pod, 0, 6, 300, 80, 20);
  ASSERT_TRUE(Ingester().RunOnce().ok());
  const auto rows = store_.Rows("c1");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].pod_uid, "");
  EXPECT_EQ(rows[1].pod_uid, "ml/train-0");  // a pod the inventory does not know
  EXPECT_EQ(rows[1].pod, "train-0");
  EXPECT_DOUBLE_EQ(rows[1].util_mean.value_or(-1), 0.5);
}

TEST_F(PullIngesterTest, MinutesThatHoldNoMeasurementAreDroppedAndCounted) {
  prometheus_.Gauge("gpu_util", kGpu0, 0, 6, 300, 80, 20);
  prometheus_.Gauge("gpu_util", kGpu0, 1, 6, std::numeric_limits<double>::quiet_NaN(), 80, 20);
  prometheus_.Gauge("gpu_util", kGpu0, 2, 4, 100, 9223372036854775794.0, 0);
  prometheus_.Gauge("gpu_util", {{"Hostname", "node-1"}}, 0, 3, 1, 1, 1);  // names no device
  ASSERT_TRUE(Ingester().RunOnce().ok());
  EXPECT_EQ(store_.Rows("c1").size(), 1u);
  EXPECT_EQ(Dropped("nan"), 6);
  EXPECT_EQ(Dropped("dcgm_blank"), 4);
  EXPECT_EQ(Dropped("no_device"), 3);
  EXPECT_EQ(metrics_.Accepted("pull").Value(), 6);
}

TEST_F(PullIngesterTest, AFailedQueryStoresNothingAndLeavesTheWatermark) {
  prometheus_.Gauge("gpu_util", kGpu0, 0, 6, 300, 80, 20);
  prometheus_.fail = true;
  auto report = Ingester().RunOnce();
  EXPECT_EQ(report.status().code(), absl::StatusCode::kUnavailable) << report.status();
  EXPECT_TRUE(store_.Rows("c1").empty());
  EXPECT_TRUE(Watermarks().empty());
  EXPECT_EQ(metrics_.PullQueries("error").Value(), 1);
}

TEST_F(PullIngesterTest, AStoreThatIsAwayIsReturnedAndTheNextCycleFetchesTheSameMinutes) {
  prometheus_.Gauge("gpu_util", kGpu0, 0, 6, 300, 80, 20);
  store_.FailNextWrites(1);
  auto failed = Ingester().RunOnce();
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable) << failed.status();
  EXPECT_TRUE(Watermarks().empty());
  auto retried = Ingester().RunOnce();
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_EQ(retried->from, At(0));
  EXPECT_EQ(store_.Rows("c1").size(), 1u);
}

TEST_F(PullIngesterTest, WindowsAreChunkedToMaxPoints) {
  options_.max_points = 4;
  for (int m = 0; m < 10; ++m) prometheus_.Gauge("gpu_util", kGpu0, m, 6, 300, 80, 20);
  auto report = Ingester().RunOnce();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->chunks, 3);  // [0, 4), [4, 8), [8, 10)
  EXPECT_EQ(report->rows, 10);
  EXPECT_EQ(store_.Rows("c1").size(), 10u);
}

TEST_F(PullIngesterTest, ABackfillBeforeTheWatermarkFetchesFromSinceOnce) {
  ASSERT_TRUE(store_.AdvanceWatermarks("c1", {"gpu_energy", "gpu_util"}, At(8)).ok());
  options_.since = At(2);
  PullIngester& ingester = Ingester();
  auto first = ingester.RunOnce();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->from, At(2));
  EXPECT_EQ(Watermarks().at("gpu_util"), At(8));  // never backwards
  auto second = ingester.RunOnce();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->from, At(8));
}

}  // namespace
}  // namespace fleetcap::telemetry
