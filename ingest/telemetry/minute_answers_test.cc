#include "ingest/telemetry/minute_answers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace fleetcap::telemetry {
namespace {

constexpr int64_t kMinute = 1'767'225'600'000;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kBlank = 9223372036854775794.0;  // a DCGM "blank" value

MinuteAnswers Gauge(double count, double sum, double max, double min) {
  MinuteAnswers a;
  a.minute_ms = kMinute;
  a.count = count;
  a.sum = sum;
  a.max = max;
  a.min = min;
  return a;
}

MinuteAnswers Counter(double count, std::optional<double> last, std::optional<double> previous = std::nullopt) {
  MinuteAnswers a;
  a.minute_ms = kMinute;
  a.count = count;
  a.last = last;
  a.previous_last = previous;
  return a;
}

struct Case {
  std::string name;
  MinuteAnswers answers;
  MetricRule rule;
  // Expected: the figures (sum, max) or the reason of the drop, or neither.
  std::optional<std::pair<double, double>> stats;
  std::optional<DropReason> dropped;
  int samples;
};

const MetricRule kGauge{Field::kUtil, 1, false};
const MetricRule kPercent{Field::kUtil, 0.01, false};
const MetricRule kEnergy{Field::kEnergy, 1, true};
const MetricRule kMilliJoules{Field::kEnergy, 0.001, true};

TEST(PullMinuteStatsTest, EveryCase) {
  const Case cases[] = {
      {"gauge", Gauge(6, 3, 0.9, 0.1), kGauge, {{3, 0.9}}, std::nullopt, 6},
      {"gauge scaled to its unit", Gauge(6, 300, 90, 10), kPercent, {{3, 0.9}}, std::nullopt, 6},
      {"gauge just below the sentinels", Gauge(1, 9.2e18, 9.2e18, 9.2e18), kGauge, {{9.2e18, 9.2e18}}, std::nullopt, 1},
      {"no samples", Gauge(0, 0, 0, 0), kGauge, std::nullopt, std::nullopt, 0},
      {"a count no minute holds", Gauge(60'001, 1, 1, 1), kGauge, std::nullopt, std::nullopt, 0},
      {"a negative count", Gauge(-1, 1, 1, 1), kGauge, std::nullopt, std::nullopt, 0},
      {"a NaN count", Gauge(kNan, 1, 1, 1), kGauge, std::nullopt, std::nullopt, 0},
      {"gauge NaN", Gauge(6, kNan, kNan, kNan), kGauge, std::nullopt, DropReason::kNan, 6},
      {"gauge +Inf", Gauge(6, kInf, kInf, 0.1), kGauge, std::nullopt, DropReason::kInf, 6},
      {"gauge -Inf", Gauge(6, -kInf, 0.5, -kInf), kGauge, std::nullopt, DropReason::kInf, 6},
      {"gauge negative", Gauge(6, 1, 0.5, -0.1), kGauge, std::nullopt, DropReason::kNegative, 6},
      {"gauge DCGM blank", Gauge(6, kBlank, kBlank, 0.1), kGauge, std::nullopt, DropReason::kSentinel, 6},
      {"gauge negative and blank: negative first", Gauge(6, 1, kBlank, -1), kGauge, std::nullopt, DropReason::kNegative,
       6},
      {"counter, first minute: no increase yet", Counter(6, 100), kEnergy, {{0, 100}}, std::nullopt, 6},
      {"counter increase", Counter(6, 150, 100), kEnergy, {{50, 150}}, std::nullopt, 6},
      {"counter unchanged", Counter(6, 150, 150), kEnergy, {{0, 150}}, std::nullopt, 6},
      {"counter reset counts from zero", Counter(6, 20, 150), kEnergy, {{20, 20}}, std::nullopt, 6},
      {"counter scaled to its unit", Counter(6, 3000, 1000), kMilliJoules, {{2, 3}}, std::nullopt, 6},
      {"counter without a last value", Counter(6, std::nullopt, 100), kEnergy, std::nullopt, std::nullopt, 6},
      {"counter NaN", Counter(6, kNan, 100), kEnergy, std::nullopt, DropReason::kNan, 6},
      {"counter Inf is counted as NaN", Counter(6, kInf, 100), kEnergy, std::nullopt, DropReason::kNan, 6},
      {"counter negative", Counter(6, -5, 100), kEnergy, std::nullopt, DropReason::kNegative, 6},
      {"counter DCGM blank", Counter(6, kBlank, 100), kEnergy, std::nullopt, DropReason::kSentinel, 6},
      {"counter after a blank minute counts from zero", Counter(6, 20, kBlank), kEnergy, {{20, 20}}, std::nullopt, 6},
      {"counter after a NaN minute counts from zero", Counter(6, 20, kNan), kEnergy, {{20, 20}}, std::nullopt, 6},
      {"counter with no samples", Counter(0, 20, 10), kEnergy, std::nullopt, std::nullopt, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const MinuteVerdict v = PullMinuteStats(c.answers, c.rule);
    EXPECT_EQ(v.samples, c.samples);
    EXPECT_EQ(v.dropped, c.dropped);
    ASSERT_EQ(v.stats.has_value(), c.stats.has_value());
    if (!c.stats) continue;
    EXPECT_EQ(v.stats->minute_ms, kMinute);
    EXPECT_EQ(v.stats->n, c.samples);
    EXPECT_DOUBLE_EQ(v.stats->sum, c.stats->first);
    EXPECT_DOUBLE_EQ(v.stats->max, c.stats->second);
  }
}

}  // namespace
}  // namespace fleetcap::telemetry
