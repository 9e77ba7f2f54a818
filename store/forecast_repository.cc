#include "store/forecast_repository.h"

#include <cmath>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "store/chargeback_repository.h"

namespace fleetcap::store {

bool ForecastSeriesRecord::operator==(const ForecastSeriesRecord& o) const {
  return flavor == o.flavor && team == o.team && what == o.what && model == o.model && fit == o.fit &&
         fallback_reason == o.fallback_reason && history == o.history && p50 == o.p50 && p90 == o.p90 &&
         exhaustion_p50 == o.exhaustion_p50 && exhaustion_p90 == o.exhaustion_p90;
}

bool ForecastRunHeader::operator==(const ForecastRunHeader& o) const {
  return run_id == o.run_id && computed_at == o.computed_at && history_start == o.history_start &&
         forecast_start == o.forecast_start && horizon_hours == o.horizon_hours;
}

namespace {

bool KnownWhat(const std::string& what) {
  for (const char* known : kForecastWhat) {
    if (what == known) return true;
  }
  return false;
}

absl::Status InYears(const std::string& field, absl::Time t) {
  const absl::Time first = absl::FromCivil(absl::CivilSecond(1, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  const absl::Time past_last = absl::FromCivil(absl::CivilSecond(10000, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  if (t < first || t >= past_last) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", absl::FormatTime(t), " is outside the years 1-9999"));
  }
  return absl::OkStatus();
}

absl::Status Bounded(const std::string& field, const std::string& text, size_t max_bytes) {
  if (text.size() > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", text.size(), " bytes, more than ", max_bytes));
  }
  return absl::OkStatus();
}

absl::Status CheckPoints(const std::string& field, const std::vector<int64_t>& points, int64_t want) {
  if (static_cast<int64_t>(points.size()) != want) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", points.size(), " points, the run's hours need ", want));
  }
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(field, "[", i, "]: negative (", points[i], ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSeries(const std::string& where, const ForecastSeriesRecord& s, int64_t history_hours,
                         int64_t horizon_hours) {
  if (s.flavor.empty()) return absl::InvalidArgumentError(absl::StrCat(where, ".flavor: empty"));
  if (s.model.empty()) return absl::InvalidArgumentError(absl::StrCat(where, ".model: empty"));
  for (const auto& [field, text] :
       {std::pair<const char*, const std::string*>{"flavor", &s.flavor}, {"team", &s.team}, {"model", &s.model}}) {
    if (auto st = Bounded(absl::StrCat(where, ".", field), *text, kMaxForecastNameBytes); !st.ok()) return st;
  }
  if (auto st = Bounded(where + ".fallback_reason", s.fallback_reason, kMaxForecastReasonBytes); !st.ok()) return st;
  if (!KnownWhat(s.what)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".what: \"", s.what, "\" is not one of ", absl::StrJoin(kForecastWhat, ", ")));
  }
  if (s.what == "capacity" && !s.team.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ".team: \"", s.team, "\" on a capacity series"));
  }
  if (s.fit.size() > kMaxForecastFitEntries) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".fit: ", s.fit.size(), " entries, more than ", kMaxForecastFitEntries));
  }
  for (const auto& [name, value] : s.fit) {
    if (name.empty() || name.size() > kMaxForecastNameBytes) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".fit: a name of ", name.size(), " bytes"));
    }
    if (!std::isfinite(value)) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".fit[", name, "]: not a finite number"));
    }
  }
  if (auto st = CheckPoints(where + ".history", s.history, history_hours); !st.ok()) return st;
  if (auto st = CheckPoints(where + ".p50", s.p50, horizon_hours); !st.ok()) return st;
  if (auto st = CheckPoints(where + ".p90", s.p90, horizon_hours); !st.ok()) return st;
  for (size_t i = 0; i < s.p90.size(); ++i) {
    if (s.p90[i] < s.p50[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".p90[", i, "]: ", s.p90[i], " is below its p50 (", s.p50[i], ")"));
    }
  }
  for (const auto& [field, day] :
       {std::pair<const char*, const std::optional<absl::Time>*>{"exhaustion_p50", &s.exhaustion_p50},
        {"exhaustion_p90", &s.exhaustion_p90}}) {
    if (day->has_value()) {
      if (auto st = InYears(absl::StrCat(where, ".", field), **day); !st.ok()) return st;
      if (!IsWholeDay(**day)) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ".", field, ": ", absl::FormatTime(**day), " is not a UTC midnight"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateForecastRun(const ForecastRunDraft& run) {
  const ForecastRunHeader& h = run.header;
  for (const auto& [field, t] : {std::pair<const char*, absl::Time>{"computed_at", h.computed_at},
                                 {"history_start", h.history_start},
                                 {"forecast_start", h.forecast_start}}) {
    if (auto st = InYears(field, t); !st.ok()) return st;
  }
  if (!IsWholeHour(h.history_start)) {
    return absl::InvalidArgumentError(
        absl::StrCat("history_start: ", absl::FormatTime(h.history_start), " is not a whole hour"));
  }
  if (!IsWholeHour(h.forecast_start)) {
    return absl::InvalidArgumentError(
        absl::StrCat("forecast_start: ", absl::FormatTime(h.forecast_start), " is not a whole hour"));
  }
  if (h.forecast_start < h.history_start) {
    return absl::InvalidArgumentError("forecast_start: before history_start");
  }
  const int64_t history_hours = (h.forecast_start - h.history_start) / absl::Hours(1);
  if (history_hours > kMaxForecastHours) {
    return absl::InvalidArgumentError(
        absl::StrCat("history_start: ", history_hours, " hours of history, more than ", kMaxForecastHours));
  }
  if (h.horizon_hours < 1 || h.horizon_hours > kMaxForecastHours) {
    return absl::InvalidArgumentError(
        absl::StrCat("horizon_hours: ", h.horizon_hours, " is out of range (1..", kMaxForecastHours, ")"));
  }
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (size_t i = 0; i < run.series.size(); ++i) {
    const ForecastSeriesRecord& s = run.series[i];
    const std::string where = absl::StrCat("series[", i, "]");
    if (auto st = CheckSeries(where, s, history_hours, h.horizon_hours); !st.ok()) return st;
    if (!seen.emplace(s.flavor, s.team, s.what).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": flavor \"", s.flavor, "\", team \"", s.team, "\" and what \"", s.what, "\" repeated"));
    }
  }
  return absl::OkStatus();
}

absl::Time ForecastRunTime(absl::Time t) { return absl::FromUnixMicros(absl::ToUnixMicros(t)); }

std::string ForecastFitJson(const std::map<std::string, double>& fit) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [name, value] : fit) object[name] = value;
  return object.dump();
}

absl::StatusOr<std::map<std::string, double>> ForecastFitFromJson(const std::string& json) {
  const nlohmann::json object = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) return absl::DataLossError("forecast fit: not a JSON object");
  std::map<std::string, double> fit;
  for (const auto& [name, value] : object.items()) {
    if (!value.is_number()) return absl::DataLossError(absl::StrCat("forecast fit: ", name, " is not a number"));
    fit[name] = value.get<double>();
  }
  return fit;
}

}  // namespace fleetcap::store
