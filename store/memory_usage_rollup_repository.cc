#include "store/memory_usage_rollup_repository.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"

namespace fleetcap::store {
namespace {

absl::Time HourOf(absl::Time t) { return absl::UnixEpoch() + absl::Floor(t - absl::UnixEpoch(), absl::Hours(1)); }

}  // namespace

absl::Status MemoryUsageRollupRepository::RollUp(const std::string& cluster, absl::Time start, absl::Time end) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    calls_.emplace_back(cluster, start, end);
  }
  if (end < start) {
    return absl::InvalidArgumentError(absl::StrCat("usage rollup of ", cluster, ": window end ", FormatRfc3339(end),
                                                   " is before its start ", FormatRfc3339(start)));
  }
  if (start == end) return absl::OkStatus();
  UsageFilter filter;
  filter.cluster = cluster;
  filter.start = HourOf(start);
  filter.end = HourOf(end) == end ? end : HourOf(end) + absl::Hours(1);
  filter.pods = true;
  FLEETCAP_ASSIGN_OR_RETURN(auto rows, usage_->Minutes(filter));
  std::map<absl::Time, std::vector<UsedMinuteRecord>> rolled;
  for (absl::Time hour = filter.start; hour < filter.end; hour += absl::Hours(1)) rolled[hour];
  for (const UsageMinuteRow& row : rows) {
    if (row.pod_uid.empty() || !row.util_mean.has_value()) continue;
    const absl::Time minute = absl::FromUnixMillis(row.minute_ms);
    rolled[HourOf(minute)].push_back({row.pod_uid, row.device_id, minute, UsedMilli(*row.util_mean)});
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [hour, readings] : rolled) hours_[cluster][hour] = std::move(readings);
  return absl::OkStatus();
}

std::vector<UsedMinuteRecord> MemoryUsageRollupRepository::Usage(const std::string& cluster, absl::Time start,
                                                                 absl::Time end) const {
  std::vector<UsedMinuteRecord> usage;
  std::lock_guard<std::mutex> lock(mu_);
  auto c = hours_.find(cluster);
  if (c == hours_.end()) return usage;
  for (auto h = c->second.lower_bound(HourOf(start)); h != c->second.end() && h->first < end; ++h) {
    for (const UsedMinuteRecord& r : h->second) {
      if (r.minute >= start && r.minute < end) usage.push_back(r);
    }
  }
  std::sort(usage.begin(), usage.end(), [](const UsedMinuteRecord& a, const UsedMinuteRecord& b) {
    return std::tie(a.device_id, a.pod_uid, a.minute) < std::tie(b.device_id, b.pod_uid, b.minute);
  });
  return usage;
}

std::vector<std::tuple<std::string, absl::Time, absl::Time>> MemoryUsageRollupRepository::RollUpCalls() const {
  std::lock_guard<std::mutex> lock(mu_);
  return calls_;
}

}  // namespace fleetcap::store
