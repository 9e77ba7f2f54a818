#include "ingest/telemetry/sample_time_window.h"

#include <gtest/gtest.h>

namespace fleetcap::telemetry {
namespace {

constexpr int64_t kNowMs = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

CanonicalSeries Series(std::vector<Point> points) {
  CanonicalSeries s;
  s.key.device_id = "GPU-0";
  s.field = Field::kUtil;
  s.points = std::move(points);
  return s;
}

TEST(SampleTimeWindow, KeepsTheEdgesAndDropsWhatIsBeyondThemByReason) {
  const SampleTimeWindow window{absl::Hours(1), absl::Hours(24)};
  const absl::Time now = absl::FromUnixMillis(kNowMs);
  std::vector<CanonicalSeries> series = {Series({{kNowMs, 1},
                                                 {kNowMs + 3'600'000, 2},
                                                 {kNowMs + 3'600'001, 3},
                                                 {kNowMs - 86'400'000, 4},
                                                 {kNowMs - 86'400'001, 5},
                                                 {INT64_MAX, 6},
                                                 {INT64_MIN, 7}}),
                                         Series({{kNowMs + 86'400'000'000, 8}})};  // nothing left: the series goes
  DropCounts drops;
  EXPECT_EQ(DropOutsideWindow(window, now, &series, &drops), 5);
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].points.size(), 3u);
  EXPECT_EQ(series[0].points[0].value, 1);
  EXPECT_EQ(series[0].points[1].value, 2);
  EXPECT_EQ(series[0].points[2].value, 4);
  EXPECT_EQ(drops.Get(DropReason::kFuture), 3);
  EXPECT_EQ(drops.Get(DropReason::kTooOld), 2);
  EXPECT_STREQ(DropReasonName(DropReason::kFuture), "future");
  EXPECT_STREQ(DropReasonName(DropReason::kTooOld), "too_old");
}

}  // namespace
}  // namespace fleetcap::telemetry
