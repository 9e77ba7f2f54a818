#include "ingest/telemetry/minute_window.h"

#include <gtest/gtest.h>

namespace fleetcap::telemetry {
namespace {

constexpr int64_t kT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z, a minute boundary
const absl::Time kNow = absl::FromUnixMillis(kT0 + 3'600'000);

CanonicalSeries CanonicalSeriesOf(const std::string& device, Field field, std::vector<Point> points) {
  CanonicalSeries s;
  s.key.device_id = device;
  s.field = field;
  s.points = std::move(points);
  return s;
}

std::vector<Point> Every10s(int64_t from_ms, int n, double value = 0.5) {
  std::vector<Point> out;
  for (int i = 0; i < n; ++i) out.push_back({from_ms + i * 10'000, value});
  return out;
}

TEST(MinuteWindowTest, AMinuteClosesOnceTheDevicesNewestSampleIsSettlePastItsEnd) {
  MinuteWindow window(absl::Seconds(30));
  // Minute 0 fully, minute 1 up to 1:20.
  window.Add(0, 10, {CanonicalSeriesOf("GPU-0", Field::kUtil, Every10s(kT0, 9))}, kNow);
  ClosedBatch closed = window.Close(kNow);
  EXPECT_TRUE(closed.minutes.empty());  // the newest, 1:20, is not 30 s past minute 0's end
  EXPECT_EQ(closed.checkpoint, 0);
  window.Add(10, 20, {CanonicalSeriesOf("GPU-0", Field::kUtil, {{kT0 + 90'000, 0.5}})}, kNow);  // 1:30
  closed = window.Close(kNow);
  ASSERT_EQ(closed.minutes.size(), 1u);
  EXPECT_EQ(closed.minutes.begin()->second, kT0);
  ASSERT_EQ(closed.series.size(), 1u);
  EXPECT_EQ(closed.series[0].points.size(), 6u);  // 0:00 .. 0:50
  ASSERT_EQ(closed.progress.size(), 1u);
  EXPECT_EQ(closed.progress[0].closed_through_ms, kT0 + 60'000);
  // Minute 1 is open and its first sample came in record 0.
  EXPECT_EQ(closed.checkpoint, 0);
  EXPECT_EQ(window.open_minutes(), 1);
}

TEST(MinuteWindowTest, AnIdleDeviceClosesEverythingAfterSettle) {
  MinuteWindow window(absl::Seconds(30));
  window.Add(0, 10, {CanonicalSeriesOf("GPU-0", Field::kUtil, Every10s(kT0, 3))}, kNow);
  EXPECT_TRUE(window.Close(kNow + absl::Seconds(29)).minutes.empty());
  ClosedBatch closed = window.Close(kNow + absl::Seconds(30));
  ASSERT_EQ(closed.minutes.size(), 1u);
  EXPECT_EQ(closed.checkpoint, 10);  // nothing open: the log up to here is done with
  EXPECT_TRUE(closed.checkpoint_moved);
  EXPECT_FALSE(window.Close(kNow + absl::Seconds(31)).checkpoint_moved);
  EXPECT_EQ(window.open_minutes(), 0);
  EXPECT_EQ(window.held_points(), 0);
}

TEST(MinuteWindowTest, DuplicatesCountOnceAndLateSamplesAreDropped) {
  MinuteWindow window(absl::Seconds(10));
  const auto body = CanonicalSeriesOf("GPU-0", Field::kUtil, {{kT0 + 20'000, 0.2}, {kT0, 0.1}, {kT0 + 20'000, 0.9}});
  AddCounts first = window.Add(0, 1, {body}, kNow);
  EXPECT_EQ(first.accepted, 2);
  EXPECT_EQ(first.duplicate, 1);  // the same timestamp twice in one request: the first value wins
  AddCounts retried = window.Add(1, 2, {body}, kNow);
  EXPECT_EQ(retried.accepted, 0);
  EXPECT_EQ(retried.duplicate, 3);
  ClosedBatch closed = window.Close(kNow, true);
  ASSERT_EQ(closed.series.size(), 1u);
  ASSERT_EQ(closed.series[0].points.size(), 2u);
  EXPECT_EQ(closed.series[0].points[1].value, 0.2);
  AddCounts late = window.Add(2, 3, {body}, kNow);
  EXPECT_EQ(late.late, 3);
  EXPECT_EQ(late.accepted, 0);
}

TEST(MinuteWindowTest, TheCheckpointIsTheOldestRecordStillHoldingAnOpenMinute) {
  ClosedBatch closed;
  MinuteWindow events(absl::Minutes(1));
  events.Add(100, 200, {CanonicalSeriesOf("GPU-A", Field::kUtil, {{kT0 + 5'000, 1}})}, kNow);
  events.Add(200, 300, {CanonicalSeriesOf("GPU-B", Field::kUtil, {{kT0 + 5'000, 1}})}, kNow);
  events.Add(300, 400, {CanonicalSeriesOf("GPU-A", Field::kUtil, {{kT0 + 125'000, 1}})}, kNow);
  closed = events.Close(kNow);
  ASSERT_EQ(closed.minutes.size(), 1u);
  EXPECT_EQ(closed.minutes.begin()->first, "GPU-A");
  EXPECT_EQ(closed.checkpoint, 200);  // GPU-B's minute came in the record at 200
}

TEST(MinuteWindowTest, ACountersLastClosedSampleIsCarriedIntoTheNextMinuteAndRestored) {
  MinuteWindow window(absl::Seconds(0));
  window.Add(0, 1, {CanonicalSeriesOf("GPU-0", Field::kEnergy, {{kT0 + 50'000, 1000}})}, kNow);
  ClosedBatch first = window.Close(kNow, true);
  ASSERT_EQ(first.progress.size(), 1u);
  ASSERT_EQ(first.progress[0].carried.size(), 1u);
  EXPECT_EQ(first.progress[0].carried[0].points[0].value, 1000);

  // A restarted window, restored from what the store kept.
  MinuteWindow restarted(absl::Seconds(0));
  restarted.Restore(first.progress);
  AddCounts late = restarted.Add(1, 2, {CanonicalSeriesOf("GPU-0", Field::kEnergy, {{kT0 + 40'000, 900}})}, kNow);
  EXPECT_EQ(late.late, 1);
  restarted.Add(2, 3, {CanonicalSeriesOf("GPU-0", Field::kEnergy, {{kT0 + 70'000, 1600}})}, kNow);
  ClosedBatch second = restarted.Close(kNow, true);
  ASSERT_EQ(second.series.size(), 1u);
  ASSERT_EQ(second.series[0].points.size(), 2u);
  EXPECT_EQ(second.series[0].points[0].ts_ms, kT0 + 50'000);  // the carried sample first
  StoredSeries stored;
  stored.device_id = "GPU-0";
  stored.field = Field::kEnergy;
  stored.points = second.series[0].points;
  auto rows = AggregateMinutes({stored}, second.minutes);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].minute_ms, kT0 + 60'000);
  EXPECT_EQ(*rows[0].energy_joules, 600);
}

TEST(MinuteWindowTest, ACounterSampleOlderThanTheLookbackIsNotCarried) {
  MinuteWindow window(absl::Seconds(0));
  window.Add(0, 1, {CanonicalSeriesOf("GPU-0", Field::kEnergy, {{kT0 + 50'000, 1000}})}, kNow);
  window.Add(1, 2, {CanonicalSeriesOf("GPU-0", Field::kUtil, {{kT0 + 300'000, 0.5}})}, kNow);
  ClosedBatch closed = window.Close(kNow, true);  // through 6:00; the counter's 0:50 is past the 2 min lookback
  ASSERT_EQ(closed.progress.size(), 1u);
  EXPECT_TRUE(closed.progress[0].carried.empty());
  EXPECT_EQ(window.held_points(), 0);
}

// Devices and series in memory are bounded: a new device beyond the bound
// takes the place of idle ones (no open minute, nothing for a while); when
// none is idle its samples are dropped and counted. A forgotten device that
// comes back cannot reopen a minute written for it.
TEST(MinuteWindowTest, NewDevicesBeyondTheBoundEvictTheIdleOrAreDropped) {
  MinuteWindow window(absl::Seconds(30), {2, 100});
  window.Add(0, 1,
             {CanonicalSeriesOf("GPU-0", Field::kUtil, Every10s(kT0, 6)),
              CanonicalSeriesOf("GPU-1", Field::kUtil, Every10s(kT0, 6))},
             kNow);
  ASSERT_EQ(window.Close(kNow, true).minutes.size(), 2u);  // both idle from now on, nothing open
  // Not idle for long enough yet: GPU-2 does not fit.
  AddCounts counts =
      window.Add(1, 2, {CanonicalSeriesOf("GPU-2", Field::kUtil, Every10s(kT0, 6))}, kNow + absl::Seconds(1));
  EXPECT_EQ(counts.device_limit, 6);
  EXPECT_EQ(window.devices(), 2);
  // Later the idle devices are forgotten to make room.
  const absl::Time later = kNow + absl::Minutes(3);
  counts = window.Add(2, 3, {CanonicalSeriesOf("GPU-2", Field::kUtil, Every10s(kT0 + 120'000, 6))}, later);
  EXPECT_EQ(counts.accepted, 6);
  EXPECT_EQ(counts.device_limit, 0);
  EXPECT_EQ(window.devices(), 1);
  // GPU-0 comes back with a sample of its written minute: still late.
  counts = window.Add(3, 4, {CanonicalSeriesOf("GPU-0", Field::kUtil, {{kT0 + 30'000, 0.9}})}, later);
  EXPECT_EQ(counts.late, 1);
}

TEST(MinuteWindowTest, NewSeriesBeyondTheBoundAreDroppedUntilOthersAreDone) {
  MinuteWindow window(absl::Seconds(30), {100, 2});
  AddCounts counts = window.Add(0, 1,
                                {CanonicalSeriesOf("GPU-0", Field::kUtil, Every10s(kT0, 6)),
                                 CanonicalSeriesOf("GPU-0", Field::kPower, Every10s(kT0, 6)),
                                 CanonicalSeriesOf("GPU-1", Field::kUtil, Every10s(kT0, 6))},
                                kNow);
  EXPECT_EQ(counts.accepted, 12);
  EXPECT_EQ(counts.series_limit, 6);
  EXPECT_EQ(window.series(), 2);
  window.Close(kNow, true);  // written: the gauges' series are done with
  EXPECT_EQ(window.series(), 0);
  counts = window.Add(1, 2, {CanonicalSeriesOf("GPU-1", Field::kUtil, Every10s(kT0 + 60'000, 6))}, kNow);
  EXPECT_EQ(counts.accepted, 6);
}

}  // namespace
}  // namespace fleetcap::telemetry
