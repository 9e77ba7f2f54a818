#include "store/usage_repository.h"

#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"

namespace fleetcap::store {
namespace {

constexpr int64_t kMinuteMs = 60'000;
constexpr int64_t kHourMs = 3'600'000;
constexpr int64_t kDayMs = 86'400'000;
// 10000-01-01T00:00:00Z: partitions are named by YYYYMMDD.
constexpr int64_t kBeyondYear9999Ms = 253'402'300'800'000;

int64_t Floor(int64_t ms, int64_t unit) { return (ms / unit - (ms % unit < 0 ? 1 : 0)) * unit; }

std::string MinuteRfc3339(int64_t minute_ms) {
  if (minute_ms < 0 || minute_ms >= kBeyondYear9999Ms) return absl::StrCat(minute_ms, " ms since the epoch");
  return FormatRfc3339(absl::FromUnixMillis(minute_ms));
}

}  // namespace

bool UsageMinuteRow::operator==(const UsageMinuteRow& o) const {
  const auto tie = [](const UsageMinuteRow& r) {
    return std::tie(r.device_id, r.pod_uid, r.minute_ms, r.node, r.model, r.namespace_, r.pod, r.util_mean, r.util_max,
                    r.memory_used_bytes, r.memory_total_bytes, r.power_watts, r.energy_joules, r.sm_active_mean,
                    r.tensor_active_mean, r.dram_active_mean, r.samples);
  };
  return tie(*this) == tie(o);
}

int64_t BucketStartMs(int64_t minute_ms, BucketWidth width) {
  switch (width) {
    case BucketWidth::kMinute:
      return Floor(minute_ms, kMinuteMs);
    case BucketWidth::kDay:
      return Floor(minute_ms, kDayMs);
    default:
      return Floor(minute_ms, kHourMs);
  }
}

bool Selects(const UsageFilter& f, const UsageMinuteRow& r) {
  const absl::Time minute = absl::FromUnixMillis(r.minute_ms);
  return minute >= f.start && minute < f.end && (!r.pod_uid.empty()) == f.pods &&
         (f.device.empty() || r.device_id == f.device) && (f.node.empty() || r.node == f.node) &&
         (f.model.empty() || r.model == f.model) && (f.pod.empty() || r.pod == f.pod || r.pod_uid == f.pod) &&
         (f.namespace_.empty() || r.namespace_ == f.namespace_);
}

const Clock& ClockOf(const UsageStoreOptions& options) {
  static const RealClock kRealClock;
  return options.clock != nullptr ? *options.clock : kRealClock;
}

SetAsideMinute SetAside(const std::string& cluster, const UsageMinuteRow& row, const std::string& source,
                        std::string label, std::string reason, absl::Time now) {
  QuarantineRecord record;
  record.source = source;
  record.cluster = cluster;
  record.object_key = absl::StrCat("device ", row.device_id, row.pod_uid.empty() ? "" : " pod_uid ", row.pod_uid,
                                   " minute ", MinuteRfc3339(row.minute_ms));
  record.reason = std::move(reason);
  record.payload =
      absl::StrCat("usage_minute device_id=", row.device_id, " pod_uid=", row.pod_uid, " minute_ms=", row.minute_ms,
                   " namespace=", row.namespace_, " pod=", row.pod, " samples=", row.samples);
  record.at = now;
  return {std::move(record), std::move(label)};
}

std::vector<UsageMinuteRow> WithoutUnstorable(const std::string& cluster, std::vector<UsageMinuteRow> rows,
                                              const std::string& source, absl::Time now, int retention_days,
                                              std::vector<SetAsideMinute>* set_aside) {
  // The first day the partition maintainer keeps (store/usage_partitions.h).
  const int64_t first_day = Floor(absl::ToUnixMillis(now), kDayMs) / kDayMs - retention_days;
  std::vector<UsageMinuteRow> kept;
  kept.reserve(rows.size());
  for (UsageMinuteRow& row : rows) {
    if (row.minute_ms >= kBeyondYear9999Ms) {
      set_aside->push_back(SetAside(
          cluster, row, source, "minute_out_of_range",
          absl::StrCat("minute: ", MinuteRfc3339(row.minute_ms), " is past 9999-12-31, beyond what usage_minute holds"),
          now));
    } else if (Floor(row.minute_ms, kMinuteMs) != row.minute_ms) {
      // A row is a minute's: one that starts within a minute would be kept
      // in usage_minute for ever, never moved to rest (migration 0037).
      set_aside->push_back(
          SetAside(cluster, row, source, "minute_not_whole",
                   absl::StrCat("minute: ", row.minute_ms, " ms since the epoch is not a whole minute"), now));
    } else if (Floor(row.minute_ms, kDayMs) / kDayMs < first_day) {
      set_aside->push_back(
          SetAside(cluster, row, source, "minute_before_retention",
                   absl::StrCat("minute: ", MinuteRfc3339(row.minute_ms), " is before the retention horizon of ",
                                retention_days, " days (its partition is dropped)"),
                   now));
    } else {
      kept.push_back(std::move(row));
    }
  }
  return kept;
}

}  // namespace fleetcap::store
