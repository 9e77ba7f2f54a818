#include "ingest/telemetry/minute_answers.h"

#include <cmath>

namespace fleetcap::telemetry {
namespace {

// A count no minute can hold (a Prometheus answering nonsense) counts nothing.
bool IsCount(double n) { return n >= 0 && n <= static_cast<double>(kMinuteMs); }

std::optional<DropReason> NotAMeasurement(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? DropReason::kNan : DropReason::kInf;
  if (v < 0) return DropReason::kNegative;
  if (v >= kDcgmBlankFloor) return DropReason::kSentinel;
  return std::nullopt;
}

MinuteVerdict Counter(const MinuteAnswers& a, const MetricRule& rule, MinuteVerdict verdict) {
  if (!a.last) return verdict;  // no last value: nothing to count from
  if (auto reason = NotAMeasurement(*a.last)) {
    // A counter's infinity is counted as NaN, as it always was.
    verdict.dropped = *reason == DropReason::kInf ? DropReason::kNan : *reason;
    return verdict;
  }
  MinuteStats stats{a.minute_ms, verdict.samples, 0, 0};
  const double now = *a.last * rule.scale;
  if (a.previous_last) {
    const double before = *a.previous_last * rule.scale;
    stats.sum = now >= before ? now - before : now;  // a fall is a reset
  }
  stats.max = now;
  verdict.stats = stats;
  return verdict;
}

MinuteVerdict Gauge(const MinuteAnswers& a, const MetricRule& rule, MinuteVerdict verdict) {
  if (!std::isfinite(a.sum) || !std::isfinite(a.max) || !std::isfinite(a.min)) {
    verdict.dropped = std::isnan(a.sum) ? DropReason::kNan : DropReason::kInf;
  } else if (a.min < 0) {
    verdict.dropped = DropReason::kNegative;
  } else if (a.max >= kDcgmBlankFloor) {
    verdict.dropped = DropReason::kSentinel;
  } else {
    verdict.stats = MinuteStats{a.minute_ms, verdict.samples, a.sum * rule.scale, a.max * rule.scale};
  }
  return verdict;
}

}  // namespace

MinuteVerdict PullMinuteStats(const MinuteAnswers& answers, const MetricRule& rule) {
  MinuteVerdict verdict;
  if (!IsCount(answers.count)) return verdict;
  verdict.samples = static_cast<int>(answers.count);
  if (verdict.samples == 0) return verdict;
  return rule.counter ? Counter(answers, rule, verdict) : Gauge(answers, rule, verdict);
}

}  // namespace fleetcap::telemetry
