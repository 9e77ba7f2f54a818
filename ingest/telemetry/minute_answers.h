#pragma once
// The pull path's per-minute statistics, pure: what Prometheus answered for
// one series and one minute [m, m + 60 s) in, the minute's figures (or why
// its samples are dropped) out.
//
// *_over_time cannot leave single samples out, so a minute holding a value
// that is no measurement is dropped whole, and counted: NaN, infinities,
// negative values and DCGM's "blank" sentinels (values from 2^63 - 16 up).
// A counter's minute is its last value; its increase is the difference from
// the minute before's last value, and a fall (a reset, or a minute before
// that held no measurement) counts from zero.

#include <cstdint>
#include <optional>

#include "ingest/telemetry/metric_mapping.h"
#include "ingest/telemetry/minute_aggregator.h"
#include "ingest/telemetry/normaliser.h"

namespace fleetcap::telemetry {

// One series' answers to the per-minute queries for the minute `minute_ms`.
struct MinuteAnswers {
  int64_t minute_ms = 0;
  double count = 0;  // count_over_time: the samples in the minute
  // Gauges: sum/max/min_over_time (0 when Prometheus gave none).
  double sum = 0, max = 0, min = 0;
  // Counters: last_over_time in this minute and in the minute before.
  std::optional<double> last, previous_last;
};

// What a minute yields: its figures, or the reason its `samples` are
// dropped, or neither (no samples, or a count no minute can hold).
struct MinuteVerdict {
  std::optional<MinuteStats> stats;
  std::optional<DropReason> dropped;
  int samples = 0;
};

// The minute's figures in the canonical unit of `rule` (scaled).
MinuteVerdict PullMinuteStats(const MinuteAnswers& answers, const MetricRule& rule);

}  // namespace fleetcap::telemetry
