#pragma once
// Turns one exporter series (labels + samples, as Prometheus has them) into
// a canonical series, dropping what is not a measurement and counting why:
// Prometheus stale markers, NaN, +-Inf, negative values and DCGM's "blank"
// sentinels (>= 9223372036854775792 and their float forms).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/metric_mapping.h"

namespace fleetcap::telemetry {

// DCGM reports a field it cannot read (DCGM_INT64_BLANK, 0x7ffffffffffffff0,
// and the not-found/not-supported markers above it) as one of the int64
// values from here up; as a double the floor rounds to 2^63.
constexpr double kDcgmBlankFloor = 9223372036854775792.0;

// kLate: a remote_write sample for a minute already written (minute_window.h).
// kFuture, kTooOld: outside the window around the receiver's clock
// (sample_time_window.h). kInvalidLabel: a label naming the series is not
// text the store can hold (a NUL byte, bytes that are not UTF-8).
enum class DropReason {
  kStale,
  kNan,
  kInf,
  kNegative,
  kSentinel,
  kNoDevice,
  kUnknownMetric,
  kLate,
  kFuture,
  kTooOld,
  kInvalidLabel
};
constexpr int kDropReasonCount = 11;
const char* DropReasonName(DropReason reason);

struct DropCounts {
  std::array<int64_t, kDropReasonCount> by_reason{};
  void Add(DropReason reason, int64_t n = 1) { by_reason[static_cast<int>(reason)] += n; }
  int64_t Get(DropReason reason) const { return by_reason[static_cast<int>(reason)]; }
  int64_t Total() const;
  void Merge(const DropCounts& other);
};

using Labels = std::vector<std::pair<std::string, std::string>>;  // includes __name__

// Whether every text of `key` can be stored: UTF-8 without NUL bytes (a
// series naming its device otherwise would fail every batch it is in).
bool StorableKey(const SeriesKey& key);

// Prometheus' staleness marker, a NaN with a fixed payload.
bool IsStaleMarker(double value);

class Normaliser {
 public:
  explicit Normaliser(const MetricMapping* mapping) : mapping_(mapping) {}

  // The canonical series for `labels`, with the usable points of `points`
  // (scaled to the field's unit); nullopt when the metric is not mapped or
  // no device can be named (all points counted in `drops`).
  std::optional<CanonicalSeries> Normalise(const Labels& labels, const std::vector<Point>& points,
                                           DropCounts* drops) const;

  // Only the key and field, for callers that bring their own points.
  std::optional<CanonicalSeries> Describe(const Labels& labels) const;

 private:
  const MetricMapping* mapping_;
};

}  // namespace fleetcap::telemetry
