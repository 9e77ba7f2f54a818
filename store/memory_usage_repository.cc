#include "store/memory_usage_repository.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace fleetcap::store {

SeriesIdentity MemoryUsageRepository::Join(const std::string& cluster, const SeriesName& s) const {
  SeriesIdentity id{s.pod.empty() ? "" : absl::StrCat(s.namespace_, "/", s.pod), s.node, s.model};
  const auto* state = inventory_ != nullptr ? inventory_->State(cluster) : nullptr;
  if (state == nullptr) return id;
  if (!s.pod.empty()) {
    const LivePod* newest = nullptr;
    for (const auto& [uid, p] : state->pods) {
      if (p.pod.namespace_name == s.namespace_ && p.pod.name == s.pod &&
          (newest == nullptr || p.pod.created > newest->pod.created)) {
        newest = &p;
      }
    }
    if (newest != nullptr) id.pod_uid = newest->pod.uid;
  }
  const Device* device = nullptr;
  for (const auto& [key, d] : state->devices) {
    if (d.device_id == s.device_id && (device == nullptr || d.in_service_from > device->in_service_from)) device = &d;
  }
  if (device != nullptr) {
    if (id.node.empty()) id.node = device->node;
    if (id.model.empty()) id.model = device->model;
  }
  return id;
}

absl::StatusOr<std::vector<SeriesIdentity>> MemoryUsageRepository::IdentifySeries(
    const std::string& cluster, const std::vector<SeriesName>& series) {
  std::lock_guard<std::mutex> lock(mu_);
  ClusterState& st = clusters_[cluster];
  std::vector<SeriesIdentity> out;
  out.reserve(series.size());
  for (const SeriesName& s : series) {
    const SeriesKey key{s.device_id, s.namespace_, s.pod, s.field};
    auto it = st.series.find(key);
    if (it == st.series.end()) it = st.series.emplace(key, Join(cluster, s)).first;
    out.push_back(it->second);
  }
  return out;
}

absl::Status MemoryUsageRepository::FailIfInjected() {
  if (fail_writes_ > 0) {
    --fail_writes_;
    return absl::UnavailableError("injected failure");
  }
  ++writes_;
  return absl::OkStatus();
}

MinuteWriteResult MemoryUsageRepository::Store(const std::string& cluster, std::vector<UsageMinuteRow> rows,
                                               const std::string& source) {
  const absl::Time now = ClockOf(options_).Now();
  MinuteWriteResult result;
  rows = WithoutUnstorable(cluster, std::move(rows), source, now, options_.retention_days, &result.set_aside);
  ClusterState& st = clusters_[cluster];
  for (UsageMinuteRow& row : rows) {
    if (row.samples < 1) {
      result.set_aside.push_back(SetAside(cluster, row, source, "rejected_by_store",
                                          "usage_minute row refused by the store: samples: must be at least 1", now));
      continue;
    }
    st.rows[RowKey{row.device_id, row.pod_uid, row.minute_ms}] = std::move(row);
    ++result.written;
  }
  for (const SetAsideMinute& s : result.set_aside) {
    quarantine_.push_back(s.record);
    quarantine_.back().payload = BoundedQuarantinePayload(s.record.payload);
  }
  return result;
}

absl::StatusOr<MinuteWriteResult> MemoryUsageRepository::WriteMinutes(const std::string& cluster,
                                                                      const std::vector<UsageMinuteRow>& rows,
                                                                      const std::string& source) {
  std::lock_guard<std::mutex> lock(mu_);
  FLEETCAP_RETURN_IF_ERROR(FailIfInjected());
  return Store(cluster, rows, source);
}

absl::StatusOr<MinuteWriteResult> MemoryUsageRepository::WriteClosedMinutes(const std::string& cluster,
                                                                            const std::vector<UsageMinuteRow>& rows,
                                                                            const PushProgress& progress) {
  std::lock_guard<std::mutex> lock(mu_);
  FLEETCAP_RETURN_IF_ERROR(FailIfInjected());
  MinuteWriteResult result = Store(cluster, rows, "remote_write");
  ClusterState& st = clusters_[cluster];
  for (const DeviceClosedThrough& d : progress.devices) st.closed_through[d.device_id] = d.closed_through_ms;
  if (!progress.devices.empty()) {
    for (const CarriedCounter& c : progress.carried) {
      st.counters[SeriesKey{c.device_id, c.namespace_, c.pod, c.field}] = c;
    }
    // Counters of series that are gone.
    for (const DeviceClosedThrough& d : progress.devices) {
      for (auto it = st.counters.begin(); it != st.counters.end();) {
        const bool gone = it->second.device_id == d.device_id &&
                          it->second.ts_ms < d.closed_through_ms - progress.counter_lookback_ms;
        it = gone ? st.counters.erase(it) : std::next(it);
      }
    }
  }
  st.checkpoint = progress.checkpoint;
  st.log_id = progress.log_id;
  return result;
}

absl::StatusOr<PushState> MemoryUsageRepository::LoadPushState(const std::string& cluster) {
  std::lock_guard<std::mutex> lock(mu_);
  PushState state;
  auto it = clusters_.find(cluster);
  if (it == clusters_.end()) return state;
  const ClusterState& st = it->second;
  for (const auto& [device, through] : st.closed_through) state.devices.push_back({device, through});
  for (const auto& [key, c] : st.counters) {
    if (st.closed_through.count(c.device_id) > 0) state.carried.push_back(c);
  }
  state.checkpoint = st.checkpoint;
  state.log_id = st.log_id;
  return state;
}

absl::StatusOr<std::map<std::string, absl::Time>> MemoryUsageRepository::Watermarks(const std::string& cluster) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = clusters_.find(cluster);
  if (it == clusters_.end()) return std::map<std::string, absl::Time>{};
  return it->second.watermarks;
}

absl::Status MemoryUsageRepository::AdvanceWatermarks(const std::string& cluster,
                                                      const std::vector<std::string>& metrics, absl::Time through) {
  std::lock_guard<std::mutex> lock(mu_);
  FLEETCAP_RETURN_IF_ERROR(FailIfInjected());
  auto& watermarks = clusters_[cluster].watermarks;
  for (const auto& name : metrics) {
    auto [it, inserted] = watermarks.emplace(name, through);
    if (!inserted) it->second = std::max(it->second, through);
  }
  return absl::OkStatus();
}

std::vector<UsageMinuteRow> MemoryUsageRepository::Selected(const UsageFilter& filter) const {
  std::vector<UsageMinuteRow> out;
  auto it = clusters_.find(filter.cluster);
  if (it == clusters_.end()) return out;
  for (const auto& [key, row] : it->second.rows) {
    if (Selects(filter, row)) out.push_back(row);
  }
  return out;
}

absl::StatusOr<std::vector<UsageBucket>> MemoryUsageRepository::Buckets(const UsageFilter& filter,
                                                                        BucketWidth width) const {
  std::lock_guard<std::mutex> lock(mu_);
  struct Sums {
    double util_weighted = 0, memory = 0, power = 0;
    int64_t util_samples = 0, util_rows = 0, memory_rows = 0, power_rows = 0;
    std::optional<double> util_max;
    std::set<std::pair<std::string, std::string>> series;
  };
  std::map<int64_t, Sums> buckets;
  for (const UsageMinuteRow& r : Selected(filter)) {
    Sums& s = buckets[BucketStartMs(r.minute_ms, width)];
    if (r.util_mean) {
      s.util_weighted += *r.util_mean * r.samples;
      s.util_samples += r.samples;
      ++s.util_rows;
    }
    if (r.util_max) s.util_max = std::max(s.util_max.value_or(*r.util_max), *r.util_max);
    if (r.memory_used_bytes) {
      s.memory += static_cast<double>(*r.memory_used_bytes);
      ++s.memory_rows;
    }
    if (r.power_watts) {
      s.power += *r.power_watts;
      ++s.power_rows;
    }
    s.series.emplace(r.device_id, r.pod_uid);
  }
  std::vector<UsageBucket> out;
  for (const auto& [start_ms, s] : buckets) {
    UsageBucket b;
    b.start = absl::FromUnixMillis(start_ms);
    if (s.util_samples != 0) b.util_mean = s.util_weighted / static_cast<double>(s.util_samples);
    b.util_max = s.util_max;
    if (s.memory_rows > 0) b.memory_used_bytes = s.memory / static_cast<double>(s.memory_rows);
    if (s.power_rows > 0) b.power_watts = s.power / static_cast<double>(s.power_rows);
    if (s.util_rows > 0) b.samples = s.util_samples;
    b.series = static_cast<int64_t>(s.series.size());
    out.push_back(b);
  }
  return out;
}

absl::StatusOr<std::vector<UsageMinuteRow>> MemoryUsageRepository::Minutes(const UsageFilter& filter) const {
  std::lock_guard<std::mutex> lock(mu_);
  return Selected(filter);
}

absl::StatusOr<std::vector<UsageMinuteRow>> MemoryUsageRepository::PodMinutes(const PodSeriesFilter& filter) const {
  std::lock_guard<std::mutex> lock(mu_);
  const std::set<std::string> devices(filter.devices.begin(), filter.devices.end());
  const std::set<std::string> pods(filter.pod_uids.begin(), filter.pod_uids.end());
  std::vector<UsageMinuteRow> out;
  auto it = clusters_.find(filter.cluster);
  if (it == clusters_.end()) return out;
  for (const auto& [key, row] : it->second.rows) {
    const absl::Time minute = absl::FromUnixMillis(row.minute_ms);
    if (minute >= filter.start && minute < filter.end && !row.pod_uid.empty() && devices.count(row.device_id) > 0 &&
        pods.count(row.pod_uid) > 0) {
      out.push_back(row);
    }
  }
  return out;
}

std::vector<UsageMinuteRow> MemoryUsageRepository::Rows(const std::string& cluster) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<UsageMinuteRow> out;
  auto it = clusters_.find(cluster);
  if (it == clusters_.end()) return out;
  for (const auto& [key, row] : it->second.rows) out.push_back(row);
  return out;
}

std::vector<QuarantineRecord> MemoryUsageRepository::Quarantine() const {
  std::lock_guard<std::mutex> lock(mu_);
  return quarantine_;
}

void MemoryUsageRepository::FailNextWrites(int n) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_writes_ = n;
}

int MemoryUsageRepository::writes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return writes_;
}

}  // namespace fleetcap::store
