#include "store/insight_waste_repository.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "store/chargeback_repository.h"

namespace fleetcap::store {
namespace {

auto PieceKey(const IdlePieceRecord& p) {
  return std::tie(p.cluster, p.hour, p.pod_uid, p.start, p.end, p.namespace_name, p.team, p.workload, p.model,
                  p.devices_milli, p.wasted_milli_seconds, p.wasted_cost_micro, p.activity_milli_seconds,
                  p.sm_milli_seconds);
}

auto WorkloadHourKey(const WorkloadHourRecord& h) {
  return std::tie(h.cluster, h.hour, h.team, h.namespace_name, h.workload, h.held_milli_seconds,
                  h.observed_milli_seconds, h.active_milli_seconds, h.sm_observed_milli_seconds, h.both_minutes,
                  h.both_held_milli_seconds, h.both_duty_milli_seconds, h.both_sm_milli_seconds);
}

absl::Status BadRow(const std::string& row, const char* field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("waste: ", row, " ", field, ": ", why));
}

absl::Status CheckPiece(const std::string& cluster, absl::Time start, absl::Time end, const IdlePieceRecord& p) {
  const std::string row = absl::StrCat("piece of pod ", p.pod_uid, " from ", FormatRfc3339(p.start));
  if (p.cluster != cluster) return BadRow(row, "cluster", absl::StrCat("not ", cluster));
  if (!IsWholeHour(p.hour) || p.hour < start || p.hour >= end) {
    return BadRow(row, "hour", "not a whole hour of the window");
  }
  if (p.start < p.hour || p.start >= p.end || p.end > p.hour + absl::Hours(1)) {
    return BadRow(row, "start", "not a span inside its hour");
  }
  if (p.devices_milli <= 0) return BadRow(row, "devices_milli", "not above 0");
  if (p.wasted_milli_seconds < 0 || p.wasted_cost_micro < 0 || p.activity_milli_seconds < 0 || p.sm_milli_seconds < 0) {
    return BadRow(row, "wasted_milli_seconds", "a figure below 0");
  }
  return absl::OkStatus();
}

absl::Status CheckWorkloadHour(const std::string& cluster, absl::Time start, absl::Time end,
                               const WorkloadHourRecord& h) {
  const std::string row = absl::StrCat("workload ", h.namespace_name, "/", h.workload, " at ", FormatRfc3339(h.hour));
  if (h.cluster != cluster) return BadRow(row, "cluster", absl::StrCat("not ", cluster));
  if (!IsWholeHour(h.hour) || h.hour < start || h.hour >= end) {
    return BadRow(row, "hour", "not a whole hour of the window");
  }
  if (h.held_milli_seconds <= 0) return BadRow(row, "held_milli_seconds", "not above 0");
  if (h.observed_milli_seconds < 0 || h.observed_milli_seconds > h.held_milli_seconds) {
    return BadRow(row, "observed_milli_seconds", "not within 0..held_milli_seconds");
  }
  if (h.active_milli_seconds < 0 || h.active_milli_seconds > h.observed_milli_seconds ||
      h.sm_observed_milli_seconds < 0 || h.sm_observed_milli_seconds > h.observed_milli_seconds) {
    return BadRow(row, "active_milli_seconds", "not within 0..observed_milli_seconds");
  }
  if (h.both_minutes < 0 || h.both_held_milli_seconds < 0 || h.both_duty_milli_seconds < 0 ||
      h.both_sm_milli_seconds < 0) {
    return BadRow(row, "both_minutes", "a figure below 0");
  }
  return absl::OkStatus();
}

}  // namespace

bool IdlePieceRecord::operator==(const IdlePieceRecord& o) const { return PieceKey(*this) == PieceKey(o); }

bool WorkloadHourRecord::operator==(const WorkloadHourRecord& o) const {
  return WorkloadHourKey(*this) == WorkloadHourKey(o);
}

bool WorkloadWasteRecord::operator==(const WorkloadWasteRecord& o) const {
  return time == o.time && std::tie(wasted_milli_seconds, wasted_cost_micro, run_count) ==
                               std::tie(o.wasted_milli_seconds, o.wasted_cost_micro, o.run_count);
}

absl::Status InsightWasteRepository::ReplaceHours(const std::string& cluster, absl::Time start, absl::Time end,
                                                  const std::vector<IdlePieceRecord>& pieces,
                                                  const std::vector<WorkloadHourRecord>& hours) {
  FLEETCAP_ASSIGN_OR_RETURN(std::unique_ptr<WasteHoursReplacement> replacement, BeginReplaceHours(cluster, start, end));
  FLEETCAP_RETURN_IF_ERROR(replacement->Add(pieces, hours));
  return replacement->Commit();
}

absl::Status CheckWasteHours(absl::Time start, absl::Time end) {
  if (!IsWholeHour(start) || !IsWholeHour(end) || start > end) {
    return absl::InvalidArgumentError(absl::StrCat("waste: window [", FormatRfc3339(start), ", ", FormatRfc3339(end),
                                                   ") is not whole hours in order"));
  }
  return absl::OkStatus();
}

absl::Status CheckWasteReplacement(const std::string& cluster, absl::Time start, absl::Time end,
                                   const std::vector<IdlePieceRecord>& pieces,
                                   const std::vector<WorkloadHourRecord>& hours) {
  FLEETCAP_RETURN_IF_ERROR(CheckWasteHours(start, end));
  std::set<std::tuple<absl::Time, std::string, absl::Time>> pieces_seen;
  for (const IdlePieceRecord& p : pieces) {
    if (absl::Status s = CheckPiece(cluster, start, end, p); !s.ok()) return s;
    if (!pieces_seen.insert({p.hour, p.pod_uid, p.start}).second) {
      return BadRow(absl::StrCat("piece of pod ", p.pod_uid, " from ", FormatRfc3339(p.start)), "key", "given twice");
    }
  }
  std::set<std::tuple<absl::Time, std::string, std::string, std::string>> hours_seen;
  for (const WorkloadHourRecord& h : hours) {
    if (absl::Status s = CheckWorkloadHour(cluster, start, end, h); !s.ok()) return s;
    if (!hours_seen.insert({h.hour, h.team, h.namespace_name, h.workload}).second) {
      return BadRow(absl::StrCat("workload ", h.namespace_name, "/", h.workload), "key", "given twice");
    }
  }
  return absl::OkStatus();
}

absl::Status CheckWasteFilter(const WasteFilter& filter) {
  if (!IsWholeHour(filter.start) || !IsWholeHour(filter.end) || filter.start > filter.end) {
    return absl::InvalidArgumentError(absl::StrCat("waste: window [", FormatRfc3339(filter.start), ", ",
                                                   FormatRfc3339(filter.end), ") is not whole hours in order"));
  }
  return absl::OkStatus();
}

bool WasteSelects(const WasteFilter& filter, const std::string& cluster, absl::Time hour, const std::string& team,
                  const std::string& namespace_name) {
  if (hour < filter.start || hour >= filter.end) return false;
  if (!filter.cluster.empty() && filter.cluster != cluster) return false;
  if (!filter.namespace_name.empty() && filter.namespace_name != namespace_name) return false;
  return filter.teams.empty() || std::find(filter.teams.begin(), filter.teams.end(), team) != filter.teams.end();
}

}  // namespace fleetcap::store
