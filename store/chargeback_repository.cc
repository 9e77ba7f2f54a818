#include "store/chargeback_repository.h"

#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"

namespace fleetcap::store {
namespace {

absl::CivilSecond Civil(absl::Time t) { return absl::ToCivilSecond(t, absl::UTCTimeZone()); }

std::string LineName(const ChargebackLineRecord& l) {
  return absl::StrCat("line (", l.cluster, ", ", FormatRfc3339(l.hour), ", ", l.team, ", ", l.namespace_name, ", ",
                      l.workload, ", ", l.model, ", ", l.line_kind, ")");
}

bool KnownKind(const std::string& kind) {
  for (const char* k : kChargebackLineKinds) {
    if (kind == k) return true;
  }
  return false;
}

absl::Status CheckLines(const std::string& cluster, absl::Time start, absl::Time end,
                        const std::vector<ChargebackLineRecord>& lines) {
  using Key = std::tuple<absl::Time, std::string, std::string, std::string, std::string, std::string>;
  std::set<Key> seen;
  for (const ChargebackLineRecord& l : lines) {
    if (l.cluster != cluster) {
      return absl::InvalidArgumentError(absl::StrCat("chargeback: ", LineName(l), " cluster: not ", cluster));
    }
    if (!IsWholeHour(l.hour) || l.hour < start || l.hour >= end) {
      return absl::InvalidArgumentError(
          absl::StrCat("chargeback: ", LineName(l), " hour: not a whole hour of the window"));
    }
    if (l.observed_milli_seconds < 0 || l.observed_milli_seconds > l.held_milli_seconds) {
      return absl::InvalidArgumentError(
          absl::StrCat("chargeback: ", LineName(l), " observed_milli_seconds: not within 0..held_milli_seconds"));
    }
    if (!KnownKind(l.line_kind)) {
      return absl::InvalidArgumentError(absl::StrCat("chargeback: ", LineName(l), " line_kind: unknown"));
    }
    if (!seen.insert(Key{l.hour, l.team, l.namespace_name, l.workload, l.model, l.line_kind}).second) {
      return absl::InvalidArgumentError(absl::StrCat("chargeback: ", LineName(l), " key: given twice"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOverHeld(const std::string& cluster, absl::Time start, absl::Time end,
                           const std::vector<OverHeldRecord>& over_held) {
  for (const OverHeldRecord& o : over_held) {
    const std::string name =
        absl::StrCat("over-held device ", o.device_id, " of ", o.cluster, " from ", FormatRfc3339(o.from));
    if (o.cluster != cluster)
      return absl::InvalidArgumentError(absl::StrCat("chargeback: ", name, " cluster: not ", cluster));
    if (o.from < start || o.from >= end) {
      return absl::InvalidArgumentError(absl::StrCat("chargeback: ", name, " from: outside the window"));
    }
    if (o.to <= o.from) return absl::InvalidArgumentError(absl::StrCat("chargeback: ", name, " to: not after from"));
  }
  return absl::OkStatus();
}

absl::Status CheckDevices(const std::string& cluster, absl::Time start, absl::Time end,
                          const std::vector<DeviceHourRecord>& devices) {
  std::set<std::pair<absl::Time, std::string>> seen;
  for (const DeviceHourRecord& d : devices) {
    const std::string name =
        absl::StrCat("chargeback: device ", d.device_id, " of ", d.cluster, " at ", FormatRfc3339(d.hour));
    if (d.cluster != cluster) return absl::InvalidArgumentError(absl::StrCat(name, " cluster: not ", cluster));
    if (!IsWholeHour(d.hour) || d.hour < start || d.hour >= end) {
      return absl::InvalidArgumentError(absl::StrCat(name, " hour: not a whole hour of the window"));
    }
    if (d.held_milli_seconds <= 0) return absl::InvalidArgumentError(absl::StrCat(name, " held: not above 0"));
    if (d.used_milli_seconds < 0) return absl::InvalidArgumentError(absl::StrCat(name, " used: below 0"));
    if (d.observed_milli_seconds < 0 || d.observed_milli_seconds > d.held_milli_seconds) {
      return absl::InvalidArgumentError(absl::StrCat(name, " observed_milli_seconds: not within 0..held"));
    }
    if (!seen.emplace(d.hour, d.device_id).second) {
      return absl::InvalidArgumentError(absl::StrCat(name, " key: given twice"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool ChargebackLineRecord::operator==(const ChargebackLineRecord& o) const {
  return std::tie(hour, cluster, team, namespace_name, workload, model, line_kind, held_milli_seconds,
                  used_milli_seconds, observed_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,
                  total_cost_micro, no_telemetry) ==
         std::tie(o.hour, o.cluster, o.team, o.namespace_name, o.workload, o.model, o.line_kind, o.held_milli_seconds,
                  o.used_milli_seconds, o.observed_milli_seconds, o.direct_cost_micro, o.idle_cost_micro,
                  o.shared_cost_micro, o.total_cost_micro, o.no_telemetry);
}

bool OverHeldRecord::operator==(const OverHeldRecord& o) const {
  return std::tie(cluster, device_id, from, to, held_milli, pod_uids) ==
         std::tie(o.cluster, o.device_id, o.from, o.to, o.held_milli, o.pod_uids);
}

bool DeviceHourRecord::operator==(const DeviceHourRecord& o) const {
  return std::tie(hour, cluster, model, node, device_id, held_milli_seconds, used_milli_seconds,
                  observed_milli_seconds) == std::tie(o.hour, o.cluster, o.model, o.node, o.device_id,
                                                      o.held_milli_seconds, o.used_milli_seconds,
                                                      o.observed_milli_seconds);
}

bool DeviceUseSum::operator==(const DeviceUseSum& o) const {
  return std::tie(cluster, model, node, device_id, held_milli_seconds, used_milli_seconds, observed_milli_seconds) ==
         std::tie(o.cluster, o.model, o.node, o.device_id, o.held_milli_seconds, o.used_milli_seconds,
                  o.observed_milli_seconds);
}

bool DeviceUse::operator==(const DeviceUse& o) const {
  return std::tie(sums, clusters_not_kept) == std::tie(o.sums, o.clusters_not_kept);
}

bool ChargebackSum::operator==(const ChargebackSum& o) const {
  return std::tie(start, team, cluster, namespace_name, workload, model, line_kind, held_milli_seconds,
                  used_milli_seconds, observed_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,
                  total_cost_micro, no_telemetry) ==
         std::tie(o.start, o.team, o.cluster, o.namespace_name, o.workload, o.model, o.line_kind, o.held_milli_seconds,
                  o.used_milli_seconds, o.observed_milli_seconds, o.direct_cost_micro, o.idle_cost_micro,
                  o.shared_cost_micro, o.total_cost_micro, o.no_telemetry);
}

bool IsWholeHour(absl::Time t) { return absl::FromCivil(absl::CivilHour(Civil(t)), absl::UTCTimeZone()) == t; }
bool IsWholeDay(absl::Time t) { return DayStart(t) == t; }
bool IsWholeMonth(absl::Time t) { return MonthStart(t) == t; }
absl::Time DayStart(absl::Time t) { return absl::FromCivil(absl::CivilDay(Civil(t)), absl::UTCTimeZone()); }
absl::Time MonthStart(absl::Time t) { return absl::FromCivil(absl::CivilMonth(Civil(t)), absl::UTCTimeZone()); }

absl::Status CheckReplacement(const std::string& cluster, absl::Time start, absl::Time end,
                              const ChargebackHours& hours) {
  if (!IsWholeHour(start) || !IsWholeHour(end) || start > end) {
    return absl::InvalidArgumentError(absl::StrCat("chargeback: window [", FormatRfc3339(start), ", ",
                                                   FormatRfc3339(end), ") is not whole hours in order"));
  }
  FLEETCAP_RETURN_IF_ERROR(CheckLines(cluster, start, end, hours.lines));
  FLEETCAP_RETURN_IF_ERROR(CheckOverHeld(cluster, start, end, hours.over_held));
  return CheckDevices(cluster, start, end, hours.devices);
}

absl::Status CheckDeviceUseFilter(const DeviceUseFilter& filter) {
  if (!IsWholeHour(filter.start) || !IsWholeHour(filter.end) || filter.start > filter.end) {
    return absl::InvalidArgumentError(absl::StrCat("chargeback: devices' window [", FormatRfc3339(filter.start), ", ",
                                                   FormatRfc3339(filter.end), ") is not whole hours in order"));
  }
  return absl::OkStatus();
}

absl::Status CheckLease(const std::string& cluster, int limit, const std::string& holder, absl::Duration lease) {
  if (limit < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("chargeback: lease of recompute marks of ", cluster, " limit: ", limit, " is negative"));
  }
  if (holder.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("chargeback: lease of recompute marks of ", cluster, " holder: empty"));
  }
  if (lease <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat("chargeback: lease of recompute marks of ", cluster, " lease: ",
                                                   absl::FormatDuration(lease), " must be longer than zero"));
  }
  return absl::OkStatus();
}

absl::Status CheckWindow(const ChargebackFilter& filter) {
  if (filter.start > filter.end) {
    return absl::InvalidArgumentError(absl::StrCat("chargeback: window end ", FormatRfc3339(filter.end),
                                                   " is before its start ", FormatRfc3339(filter.start)));
  }
  return absl::OkStatus();
}

ChargebackSource SourceFor(const ChargebackFilter& filter, ChargebackResolution resolution) {
  const bool months = IsWholeMonth(filter.start) && IsWholeMonth(filter.end);
  const bool days = IsWholeDay(filter.start) && IsWholeDay(filter.end);
  switch (resolution) {
    case ChargebackResolution::kHour:
      return ChargebackSource::kHourly;
    case ChargebackResolution::kDay:
      return days ? ChargebackSource::kDaily : ChargebackSource::kHourly;
    default:  // kMonth, kNone
      return months ? ChargebackSource::kMonthly : days ? ChargebackSource::kDaily : ChargebackSource::kHourly;
  }
}

absl::Status AddChecked(int64_t add, int64_t* sum, const char* what) {
  if (__builtin_add_overflow(*sum, add, sum)) {
    return absl::OutOfRangeError(absl::StrCat("chargeback: the sum of ", what, " is past int64"));
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::store
