#include "ingest/telemetry/minute_aggregator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

namespace fleetcap::telemetry {
namespace {

constexpr int64_t kM = 1'700'000'040'000;  // a minute boundary (divisible by 60000)

StoredSeries Series(const std::string& device, const std::string& pod_uid, Field field, std::vector<Point> points) {
  StoredSeries s;
  s.device_id = device;
  s.pod_uid = pod_uid;
  s.pod = pod_uid.empty() ? "" : "pod-" + pod_uid;
  s.namespace_ = pod_uid.empty() ? "" : "ns";
  s.node = "node-1";
  s.model = "H100";
  s.field = field;
  s.points = std::move(points);
  return s;
}

TEST(MinuteOf, FloorsToTheMinuteHalfOpen) {
  EXPECT_EQ(MinuteOf(kM), kM);
  EXPECT_EQ(MinuteOf(kM + 59'999), kM);
  EXPECT_EQ(MinuteOf(kM + 60'000), kM + 60'000);
  EXPECT_EQ(MinuteOf(-1), -60'000);
}

TEST(AggregateMinutes, MeanMaxMemoryPowerAndSamplesPerMinute) {
  std::vector<StoredSeries> series = {
      Series("G1", "", Field::kUtil, {{kM, 0.2}, {kM + 30'000, 0.6}, {kM + 60'000, 1.0}}),
      Series("G1", "", Field::kMemoryUsed, {{kM, 100}, {kM + 30'000, 201}}),
      Series("G1", "", Field::kMemoryFree, {{kM, 900}}),
      Series("G1", "", Field::kPower, {{kM + 1'000, 300}, {kM + 2'000, 310}}),
  };
  auto rows = AggregateMinutes(series, {{"G1", kM}, {"G1", kM + 60'000}});
  ASSERT_EQ(rows.size(), 2u);
  const MinuteRow& first = rows[0];
  EXPECT_EQ(first.minute_ms, kM);
  EXPECT_EQ(first.pod_uid, "");
  EXPECT_DOUBLE_EQ(*first.util_mean, 0.4);
  EXPECT_DOUBLE_EQ(*first.util_max, 0.6);
  EXPECT_EQ(*first.memory_used_bytes, 151);    // 150.5 rounded half away from zero
  EXPECT_EQ(*first.memory_total_bytes, 1051);  // used + free when no total is reported
  EXPECT_DOUBLE_EQ(*first.power_watts, 305);
  EXPECT_FALSE(first.energy_joules.has_value());
  EXPECT_FALSE(first.sm_active_mean.has_value());
  EXPECT_EQ(first.samples, 2);
  EXPECT_EQ(first.node, "node-1");
  const MinuteRow& second = rows[1];
  EXPECT_EQ(second.minute_ms, kM + 60'000);
  EXPECT_EQ(second.samples, 1);
  EXPECT_FALSE(second.power_watts.has_value());  // no sample: unset, not zero
}

// A catch-up closes many minutes at once (a backfill, the demo's replay of
// two weeks): its rows are those of the same minutes closed one at a time,
// each pod's only over the minutes it has points in.
TEST(AggregateMinutes, ManyMinutesAtOnceGiveTheRowsOfEachMinuteAlone) {
  std::vector<Point> device_util, early_pod, late_pod, energy;
  for (int64_t minute = 0; minute < 600; ++minute) {
    const int64_t at = kM + minute * 60'000 + 5'000;
    device_util.push_back({at, static_cast<double>(minute % 100) / 100});
    energy.push_back({at, static_cast<double>(minute * 10 % 700)});  // resets now and then
    if (minute < 200) early_pod.push_back({at, 0.5});
    if (minute >= 150 && minute < 400) late_pod.push_back({at + 10'000, 0.25});
  }
  std::vector<StoredSeries> series = {
      Series("G1", "", Field::kUtil, device_util), Series("G1", "", Field::kEnergy, energy),
      Series("G1", "a", Field::kUtil, early_pod), Series("G1", "b", Field::kUtil, late_pod)};
  std::set<DeviceMinute> all;
  std::vector<MinuteRow> one_at_a_time;
  for (int64_t minute = 0; minute < 610; ++minute) {
    all.insert({"G1", kM + minute * 60'000});
    for (MinuteRow& row : AggregateMinutes(series, {{"G1", kM + minute * 60'000}})) {
      one_at_a_time.push_back(std::move(row));
    }
  }
  std::vector<MinuteRow> at_once = AggregateMinutes(series, all);
  auto key = [](const MinuteRow& row) { return std::make_tuple(row.pod_uid, row.minute_ms); };
  std::sort(one_at_a_time.begin(), one_at_a_time.end(),
            [&](const MinuteRow& a, const MinuteRow& b) { return key(a) < key(b); });
  ASSERT_EQ(at_once.size(), 600u + 200u + 250u);
  ASSERT_EQ(at_once.size(), one_at_a_time.size());
  for (size_t i = 0; i < at_once.size(); ++i) {
    EXPECT_EQ(key(at_once[i]), key(one_at_a_time[i]));
    EXPECT_EQ(at_once[i].util_mean, one_at_a_time[i].util_mean);
    EXPECT_EQ(at_once[i].energy_joules, one_at_a_time[i].energy_joules);
    EXPECT_EQ(at_once[i].samples, one_at_a_time[i].samples);
  }
}

TEST(AggregateMinutes, AMemoryFigureNoByteCountCanHoldIsLeftUnset) {
  std::vector<StoredSeries> series = {
      Series("G1", "", Field::kMemoryUsed, {{kM, 1e19}}),
      Series("G1", "", Field::kMemoryFree, {{kM, 5e18}}),
      Series("G1", "", Field::kMemoryTotal, {{kM, -1}}),
      Series("G1", "", Field::kUtil, {{kM, 0.5}}),
  };
  auto rows = AggregateMinutes(series, {{"G1", kM}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].memory_used_bytes.has_value());
  EXPECT_FALSE(rows[0].memory_total_bytes.has_value());
  EXPECT_DOUBLE_EQ(*rows[0].util_mean, 0.5);  // the rest of the minute is kept
}

TEST(AggregateMinutes, PodRowsAndTheDeviceRowFromPodSeries) {
  // Two pods time-share G1; the exporter reports the device under each pod.
  std::vector<StoredSeries> series = {
      Series("G1", "uid-a", Field::kUtil, {{kM, 0.5}, {kM + 10'000, 0.7}}),
      Series("G1", "uid-b", Field::kUtil, {{kM, 0.5}, {kM + 20'000, 0.9}}),
  };
  auto rows = AggregateMinutes(series, {{"G1", kM}});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].pod_uid, "");
  EXPECT_EQ(rows[0].samples, 3);  // kM counted once
  EXPECT_DOUBLE_EQ(*rows[0].util_mean, (0.5 + 0.7 + 0.9) / 3);
  EXPECT_EQ(rows[0].pod, "");
  EXPECT_EQ(rows[1].pod_uid, "uid-a");
  EXPECT_EQ(rows[1].pod, "pod-uid-a");
  EXPECT_EQ(rows[1].namespace_, "ns");
  EXPECT_DOUBLE_EQ(*rows[1].util_mean, 0.6);
  EXPECT_EQ(rows[2].pod_uid, "uid-b");
  EXPECT_DOUBLE_EQ(*rows[2].util_max, 0.9);
}

TEST(AggregateMinutes, DeviceLevelSeriesWinsOverPodSeries) {
  std::vector<StoredSeries> series = {
      Series("G1", "uid-a", Field::kUtil, {{kM, 0.1}}),
      Series("G1", "", Field::kUtil, {{kM, 0.8}}),
  };
  auto rows = AggregateMinutes(series, {{"G1", kM}});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(*rows[0].util_mean, 0.8);
  EXPECT_DOUBLE_EQ(*rows[1].util_mean, 0.1);
}

TEST(AggregateMinutes, GrEngineActiveStandsInForMissingUtil) {
  auto rows = AggregateMinutes({Series("G1", "", Field::kGrEngineActive, {{kM, 0.3}, {kM + 1, 0.5}})}, {{"G1", kM}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*rows[0].util_mean, 0.4);
  EXPECT_EQ(rows[0].samples, 2);
}

TEST(AggregateMinutes, EnergyCounterIncreaseWithResets) {
  // Joules: 1000 -> 1100 (prev minute) -> 1250 -> reset to 40 -> 90.
  std::vector<StoredSeries> series = {
      Series("G1", "", Field::kEnergy,
             {{kM - 30'000, 1000}, {kM - 1, 1100}, {kM + 10'000, 1250}, {kM + 20'000, 40}, {kM + 30'000, 90}})};
  auto rows = AggregateMinutes(series, {{"G1", kM}});
  ASSERT_EQ(rows.size(), 1u);
  // 150 from the previous minute's last sample, 40 after the reset, then 50.
  EXPECT_DOUBLE_EQ(*rows[0].energy_joules, 150 + 40 + 50);
  EXPECT_EQ(rows[0].samples, 3);
  EXPECT_FALSE(rows[0].util_mean.has_value());
}

TEST(AggregateMinutes, CounterWithoutARecentPredecessorStartsFromItsFirstSample) {
  std::vector<StoredSeries> series = {
      Series("G1", "", Field::kEnergy, {{kM - kCounterLookbackMs - 1, 10}, {kM, 500}, {kM + 1'000, 520}})};
  auto rows = AggregateMinutes(series, {{"G1", kM}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*rows[0].energy_joules, 20);
}

TEST(AggregateMinutes, OnlyWantedDeviceMinutes) {
  std::vector<StoredSeries> series = {Series("G1", "", Field::kUtil, {{kM, 0.5}, {kM + 60'000, 0.5}}),
                                      Series("G2", "", Field::kUtil, {{kM, 0.5}})};
  auto rows = AggregateMinutes(series, {{"G1", kM + 60'000}, {"G2", kM + 120'000}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].device_id, "G1");
  EXPECT_EQ(rows[0].minute_ms, kM + 60'000);
}

}  // namespace
}  // namespace fleetcap::telemetry

namespace fleetcap::telemetry {
namespace {

TEST(AggregateMinuteStats, AgreesWithAggregateMinutesForOnePodPerDevice) {
  std::vector<StoredSeries> raw = {
      Series("G1", "uid-a", Field::kUtil, {{kM, 0.2}, {kM + 15'000, 0.6}, {kM + 60'000, 0.3}}),
      Series("G1", "", Field::kPower, {{kM, 100}, {kM + 30'000, 110}}),
      Series("G1", "", Field::kEnergy, {{kM - 1'000, 10}, {kM + 10'000, 30}, {kM + 20'000, 55}}),
  };
  std::vector<StatSeries> stats;
  for (const auto& s : raw) {
    StatSeries st;
    st.identity = s;
    std::map<int64_t, MinuteStats> by_minute;
    for (size_t i = 0; i < s.points.size(); ++i) {
      const Point& p = s.points[i];
      if (p.ts_ms < kM) continue;
      MinuteStats& m = by_minute[MinuteOf(p.ts_ms)];
      m.minute_ms = MinuteOf(p.ts_ms);
      if (s.field == Field::kEnergy) {
        m.sum += p.value - s.points[i - 1].value;
      } else {
        m.sum += p.value;
      }
      m.max = m.n == 0 ? p.value : std::max(m.max, p.value);
      ++m.n;
    }
    for (const auto& [minute, m] : by_minute) st.minutes.push_back(m);
    stats.push_back(st);
  }
  auto from_raw = AggregateMinutes(raw, {{"G1", kM}, {"G1", kM + 60'000}});
  auto from_stats = AggregateMinuteStats(stats);
  ASSERT_EQ(from_raw.size(), 4u);
  EXPECT_EQ(from_stats, from_raw);
}

}  // namespace
}  // namespace fleetcap::telemetry
