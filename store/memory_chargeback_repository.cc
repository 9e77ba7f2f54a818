#include "store/memory_chargeback_repository.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"

namespace fleetcap::store {
namespace {

// The key a sum is grouped by: the period's start, then the grouped keys.
using SumKey = std::tuple<absl::Time, std::string, std::string, std::string, std::string, std::string, std::string>;

bool Selects(const ChargebackFilter& f, const ChargebackLineRecord& l) {
  if (l.hour < f.start || l.hour >= f.end) return false;
  if (!f.teams.empty() && std::find(f.teams.begin(), f.teams.end(), l.team) == f.teams.end()) return false;
  return (f.cluster.empty() || l.cluster == f.cluster) &&
         (f.namespace_name.empty() || l.namespace_name == f.namespace_name) &&
         (f.workload.empty() || l.workload == f.workload) && (f.model.empty() || l.model == f.model) &&
         (f.line_kind.empty() || l.line_kind == f.line_kind);
}

absl::Time PeriodStart(const ChargebackFilter& f, ChargebackResolution resolution, absl::Time hour) {
  switch (resolution) {
    case ChargebackResolution::kHour:
      return hour;
    case ChargebackResolution::kDay:
      return DayStart(hour);
    case ChargebackResolution::kMonth:
      return MonthStart(hour);
    default:
      return f.start;
  }
}

absl::Status Add(const ChargebackLineRecord& l, ChargebackSum* s) {
  auto status = AddChecked(l.held_milli_seconds, &s->held_milli_seconds, "held_milli_seconds");
  if (status.ok()) status = AddChecked(l.used_milli_seconds, &s->used_milli_seconds, "used_milli_seconds");
  if (status.ok()) {
    status = AddChecked(l.observed_milli_seconds, &s->observed_milli_seconds, "observed_milli_seconds");
  }
  if (status.ok()) status = AddChecked(l.direct_cost_micro, &s->direct_cost_micro, "direct_cost_micro");
  if (status.ok()) status = AddChecked(l.idle_cost_micro, &s->idle_cost_micro, "idle_cost_micro");
  if (status.ok()) status = AddChecked(l.shared_cost_micro, &s->shared_cost_micro, "shared_cost_micro");
  if (status.ok()) status = AddChecked(l.total_cost_micro, &s->total_cost_micro, "total_cost_micro");
  s->no_telemetry = s->no_telemetry || l.no_telemetry;
  return status;
}

}  // namespace

absl::Status MemoryChargebackRepository::ReplaceHours(const std::string& cluster, absl::Time start, absl::Time end,
                                                      const ChargebackHours& hours) {
  FLEETCAP_RETURN_IF_ERROR(CheckReplacement(cluster, start, end, hours));
  const std::vector<ChargebackLineRecord>& lines = hours.lines;
  const std::vector<OverHeldRecord>& over_held = hours.over_held;
  std::lock_guard<std::mutex> lock(mu_);
  ClusterState next = clusters_[cluster];
  auto& kept = next.lines;
  for (auto it = kept.begin(); it != kept.end();) {
    it = std::get<0>(it->first) >= start && std::get<0>(it->first) < end ? kept.erase(it) : std::next(it);
  }
  for (const ChargebackLineRecord& l : lines) {
    kept[LineKey{l.hour, l.team, l.namespace_name, l.workload, l.model, l.line_kind}] = l;
  }
  next.over_held.erase(std::remove_if(next.over_held.begin(), next.over_held.end(),
                                      [&](const OverHeldRecord& o) { return o.from >= start && o.from < end; }),
                       next.over_held.end());
  next.over_held.insert(next.over_held.end(), over_held.begin(), over_held.end());
  for (auto it = next.devices.begin(); it != next.devices.end();) {
    it = it->first.first >= start && it->first.first < end ? next.devices.erase(it) : std::next(it);
  }
  for (const DeviceHourRecord& d : hours.devices) next.devices[{d.hour, d.device_id}] = d;
  // The monthly rollups of the cluster must hold their sums.
  std::map<SumKey, ChargebackSum> months;
  for (const auto& [key, l] : kept) {
    ChargebackSum& s =
        months[SumKey{MonthStart(l.hour), l.team, l.cluster, l.namespace_name, l.workload, l.model, l.line_kind}];
    if (auto status = Add(l, &s); !status.ok()) return status;
  }
  clusters_[cluster] = std::move(next);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<absl::Time>> MemoryChargebackRepository::Watermark(const std::string& cluster) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = clusters_.find(cluster);
  if (it == clusters_.end()) return std::optional<absl::Time>();
  return it->second.watermark;
}

absl::Status MemoryChargebackRepository::AdvanceWatermark(const std::string& cluster, absl::Time through) {
  if (!IsWholeHour(through)) {
    return absl::InvalidArgumentError(absl::StrCat("chargeback: watermark of ", cluster,
                                                   " through: ", FormatRfc3339(through), " is not a whole hour"));
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::optional<absl::Time>& mark = clusters_[cluster].watermark;
  if (!mark.has_value() || *mark < through) mark = through;
  return absl::OkStatus();
}

absl::Status MemoryChargebackRepository::MarkForRecompute(const std::string& cluster,
                                                          const std::vector<absl::Time>& hours,
                                                          const std::string& reason) {
  for (absl::Time hour : hours) {
    if (!IsWholeHour(hour)) {
      return absl::InvalidArgumentError(
          absl::StrCat("chargeback: recompute of ", cluster, " hour: ", FormatRfc3339(hour), " is not a whole hour"));
    }
  }
  const absl::Time now = clock_->Now();
  std::lock_guard<std::mutex> lock(mu_);
  auto& marks = clusters_[cluster].recompute;
  for (absl::Time hour : hours) {
    auto [it, added] = marks.emplace(hour, StoredMark{RecomputeMark{hour, reason, now}, "", std::nullopt});
    if (!added && it->second.taken_until.has_value()) ++it->second.mark.generation;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<RecomputeMark>> MemoryChargebackRepository::LeaseRecompute(
    const std::string& cluster, int limit, const std::string& holder, absl::Time now, absl::Duration lease) {
  FLEETCAP_RETURN_IF_ERROR(CheckLease(cluster, limit, holder, lease));
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<RecomputeMark> leased;
  for (auto& [hour, stored] : clusters_[cluster].recompute) {
    if (static_cast<int>(leased.size()) >= limit) break;
    if (stored.taken_until.has_value() && *stored.taken_until > now) continue;
    ++stored.mark.lease;
    stored.taken_by = holder;
    stored.taken_until = now + lease;
    leased.push_back(stored.mark);
  }
  return leased;
}

absl::Status MemoryChargebackRepository::CompleteRecompute(const std::string& cluster,
                                                           const std::vector<RecomputeMark>& marks) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& stored = clusters_[cluster].recompute;
  for (const RecomputeMark& m : marks) {
    auto it = stored.find(m.hour);
    if (it == stored.end() || it->second.mark.lease != m.lease) continue;  // gone, or another holder's now
    if (it->second.mark.generation == m.generation) {
      stored.erase(it);
    } else {
      it->second.taken_by.clear();
      it->second.taken_until.reset();
    }
  }
  return absl::OkStatus();
}

absl::Status MemoryChargebackRepository::ReleaseRecompute(const std::string& cluster,
                                                          const std::vector<RecomputeMark>& marks) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& stored = clusters_[cluster].recompute;
  for (const RecomputeMark& m : marks) {
    auto it = stored.find(m.hour);
    if (it == stored.end() || it->second.mark.lease != m.lease) continue;
    it->second.taken_by.clear();
    it->second.taken_until.reset();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ChargebackSum>> MemoryChargebackRepository::Lines(const ChargebackFilter& filter,
                                                                             const ChargebackGroupBy& g,
                                                                             ChargebackResolution resolution) const {
  if (auto status = CheckWindow(filter); !status.ok()) return status;
  std::lock_guard<std::mutex> lock(mu_);
  std::map<SumKey, ChargebackSum> sums;
  for (const auto& [cluster, state] : clusters_) {
    for (const auto& [key, l] : state.lines) {
      if (!Selects(filter, l)) continue;
      ChargebackSum s;
      s.start = PeriodStart(filter, resolution, l.hour);
      if (g.team) s.team = l.team;
      if (g.cluster) s.cluster = l.cluster;
      if (g.namespace_name) s.namespace_name = l.namespace_name;
      if (g.workload) s.workload = l.workload;
      if (g.model) s.model = l.model;
      if (g.line_kind) s.line_kind = l.line_kind;
      auto [it, added] =
          sums.emplace(SumKey{s.start, s.team, s.cluster, s.namespace_name, s.workload, s.model, s.line_kind}, s);
      if (auto status = Add(l, &it->second); !status.ok()) return status;
    }
  }
  if (filter.device_time_only) {
    for (auto& [key, s] : sums) s.direct_cost_micro = s.idle_cost_micro = s.shared_cost_micro = s.total_cost_micro = 0;
  }
  std::vector<ChargebackSum> out;
  out.reserve(sums.size());
  for (auto& [key, s] : sums) out.push_back(std::move(s));
  if (filter.max_lines > 0 && static_cast<int64_t>(out.size()) > filter.max_lines + 1) {
    out.resize(static_cast<size_t>(filter.max_lines + 1));
  }
  return out;
}

// Every hourly line the filter selects: what Lines reads here.
absl::StatusOr<int64_t> MemoryChargebackRepository::RowsRead(const ChargebackFilter& filter, const ChargebackGroupBy&,
                                                             ChargebackResolution) const {
  if (auto status = CheckWindow(filter); !status.ok()) return status;
  std::lock_guard<std::mutex> lock(mu_);
  int64_t rows = 0;
  for (const auto& [cluster, state] : clusters_) {
    for (const auto& [key, l] : state.lines) rows += Selects(filter, l) ? 1 : 0;
  }
  return rows;
}

absl::StatusOr<DeviceUse> MemoryChargebackRepository::DevicesHeld(const DeviceUseFilter& f) const {
  FLEETCAP_RETURN_IF_ERROR(CheckDeviceUseFilter(f));
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::tuple<std::string, std::string, std::string, std::string>, DeviceUseSum> sums;
  for (const auto& [cluster, state] : clusters_) {
    if (!f.cluster.empty() && cluster != f.cluster) continue;
    for (const auto& [key, d] : state.devices) {
      if (d.hour < f.start || d.hour >= f.end || (!f.model.empty() && d.model != f.model) ||
          (!f.node.empty() && d.node != f.node)) {
        continue;
      }
      const std::string device = f.by_device ? d.device_id : "";
      DeviceUseSum& s = sums[{d.cluster, d.model, d.node, device}];
      s.cluster = d.cluster;
      s.model = d.model;
      s.node = d.node;
      s.device_id = device;
      FLEETCAP_RETURN_IF_ERROR(AddChecked(d.held_milli_seconds, &s.held_milli_seconds, "held_milli_seconds"));
      FLEETCAP_RETURN_IF_ERROR(AddChecked(d.used_milli_seconds, &s.used_milli_seconds, "used_milli_seconds"));
      FLEETCAP_RETURN_IF_ERROR(
          AddChecked(d.observed_milli_seconds, &s.observed_milli_seconds, "observed_milli_seconds"));
    }
  }
  DeviceUse out;
  out.sums.reserve(sums.size());
  for (auto& [key, s] : sums) out.sums.push_back(std::move(s));
  return out;
}

absl::StatusOr<std::vector<OverHeldRecord>> MemoryChargebackRepository::OverHeld(const std::string& cluster,
                                                                                 absl::Time start,
                                                                                 absl::Time end) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<OverHeldRecord> out;
  auto it = clusters_.find(cluster);
  if (it == clusters_.end()) return out;
  for (const OverHeldRecord& o : it->second.over_held) {
    if (o.from >= start && o.from < end) out.push_back(o);
  }
  std::sort(out.begin(), out.end(), [](const OverHeldRecord& a, const OverHeldRecord& b) {
    return std::tie(a.from, a.device_id) < std::tie(b.from, b.device_id);
  });
  return out;
}

}  // namespace fleetcap::store
