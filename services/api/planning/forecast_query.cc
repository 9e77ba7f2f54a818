#include "services/api/planning/forecast_query.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/status_macros.h"
#include "proto_time.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

constexpr size_t kMaxNameBytes = 256;

absl::Status CheckName(const char* field, const std::string& value) {
  if (value.size() > kMaxNameBytes) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", value.size(), " bytes, more than ", kMaxNameBytes));
  }
  return absl::OkStatus();
}

absl::Time DayOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 86400 * 86400); }

// Hourly `values` from `start`, as buckets: each hour, or each UTC day's
// hours folded by `fold` (the peak for demand, the low for capacity).
template <typename Add>
void Buckets(absl::Time start, const std::vector<int64_t>& values, bool daily,
             const std::function<int64_t(int64_t, int64_t)>& fold, Add add) {
  for (size_t i = 0; i < values.size();) {
    const absl::Time hour = start + absl::Hours(static_cast<int64_t>(i));
    if (!daily) {
      add(hour, values[i]);
      ++i;
      continue;
    }
    const absl::Time day = DayOf(hour);
    int64_t folded = values[i];
    for (++i; i < values.size() && DayOf(start + absl::Hours(static_cast<int64_t>(i))) == day; ++i) {
      folded = fold(folded, values[i]);
    }
    add(day, folded);
  }
}

int64_t Peak(int64_t a, int64_t b) { return std::max(a, b); }
int64_t Low(int64_t a, int64_t b) { return std::min(a, b); }

// The last `hours` of `values` (all of them when fewer).
std::vector<int64_t> Tail(const std::vector<int64_t>& values, int64_t hours) {
  const size_t n = std::min(values.size(), static_cast<size_t>(hours));
  return std::vector<int64_t>(values.end() - static_cast<std::ptrdiff_t>(n), values.end());
}
std::vector<int64_t> Head(const std::vector<int64_t>& values, int64_t hours) {
  const size_t n = std::min(values.size(), static_cast<size_t>(hours));
  return std::vector<int64_t>(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
}

// A request's horizon and series, checked, with what the token may read.
struct CheckedForecastRequest {
  int32_t horizon = 0;
  std::string what;
};

absl::StatusOr<CheckedForecastRequest> CheckForecastRequest(const Scope& scope, const v1::GetForecastRequest& request) {
  if (request.flavor().empty()) return absl::InvalidArgumentError("flavor: missing; name the policy's flavor");
  FLEETCAP_RETURN_IF_ERROR(CheckName("flavor", request.flavor()));
  FLEETCAP_RETURN_IF_ERROR(CheckName("team", request.team()));
  const int32_t horizon = request.horizon_hours() == 0 ? kMaxForecastHorizonHours : request.horizon_hours();
  if (horizon < 1 || horizon > kMaxForecastHorizonHours) {
    return absl::InvalidArgumentError(absl::StrCat("horizon_hours: ", request.horizon_hours(), " is out of range (1..",
                                                   kMaxForecastHorizonHours, ", 90 days)"));
  }
  const std::string what = request.what().empty() ? "held" : request.what();
  if (what != "held" && what != "pending") {
    return absl::InvalidArgumentError(absl::StrCat("what: \"", request.what(), "\" is not one of held, pending"));
  }
  const bool team_token = scope.role == Role::kTeam;
  if (team_token && request.team().empty()) return OutOfScope(absl::StrCat("the total of flavor ", request.flavor()));
  if (team_token && !scope.Covers(request.team())) return OutOfScope(absl::StrCat("team ", request.team()));
  return CheckedForecastRequest{horizon, what};
}

// The answer without its values: the run, the series and its model.
v1::Forecast ForecastAnswerHead(const v1::GetForecastRequest& request, const std::string& what,
                                const store::ForecastRunHeader& run, const store::ForecastSeriesRecord& series,
                                int64_t hours, bool daily) {
  v1::Forecast answer;
  answer.set_run_id(run.run_id);
  *answer.mutable_computed_at() = ToProtoTimestamp(run.computed_at);
  answer.set_flavor(request.flavor());
  answer.set_team(request.team());
  answer.set_what(what);
  answer.set_horizon_hours(static_cast<int32_t>(hours));
  answer.set_resolution(daily ? v1::DAY : v1::HOUR);
  answer.set_model(series.model);
  for (const auto& [name, value] : series.fit) {  // a std::map: by name
    v1::FitParameter* parameter = answer.add_fit();
    parameter->set_name(name);
    parameter->set_value(value);
  }
  answer.set_fallback_reason(series.fallback_reason);
  return answer;
}

// The history's tail (`tail_hours`) and the p50 and p90 of the next `hours`.
void AddHistoryAndBands(const store::ForecastRunHeader& run, const store::ForecastSeriesRecord& series, int64_t hours,
                        int64_t tail_hours, bool daily, v1::Forecast& answer) {
  const std::vector<int64_t> history = Tail(series.history, tail_hours);
  const absl::Time history_from = run.forecast_start - absl::Hours(static_cast<int64_t>(history.size()));
  Buckets(history_from, history, daily, Peak, [&](absl::Time t, int64_t v) {
    v1::ForecastValue* p = answer.add_history();
    *p->mutable_start() = ToProtoTimestamp(t);
    p->set_milli(v);
  });
  const std::vector<int64_t> p50 = Head(series.p50, hours), p90 = Head(series.p90, hours);
  std::vector<v1::ForecastBand*> bands;
  Buckets(run.forecast_start, p50, daily, Peak, [&](absl::Time t, int64_t v) {
    v1::ForecastBand* b = answer.add_forecast();
    *b->mutable_start() = ToProtoTimestamp(t);
    b->set_p50_milli(v);
    bands.push_back(b);
  });
  size_t band = 0;
  Buckets(run.forecast_start, p90, daily, Peak, [&](absl::Time, int64_t v) { bands[band++]->set_p90_milli(v); });
}

// The flavor's capacity, before and after the forecast's start.
void AddForecastCapacity(const store::ForecastRunHeader& run, const store::ForecastSeriesRecord& capacity,
                         int64_t hours, int64_t tail_hours, bool daily, v1::Forecast& answer) {
  const std::vector<int64_t> before = Tail(capacity.history, tail_hours);
  Buckets(run.forecast_start - absl::Hours(static_cast<int64_t>(before.size())), before, daily, Low,
          [&](absl::Time t, int64_t v) {
            v1::ForecastValue* p = answer.add_capacity_history();
            *p->mutable_start() = ToProtoTimestamp(t);
            p->set_milli(v);
          });
  Buckets(run.forecast_start, Head(capacity.p50, hours), daily, Low, [&](absl::Time t, int64_t v) {
    v1::ForecastValue* p = answer.add_capacity_forecast();
    *p->mutable_start() = ToProtoTimestamp(t);
    p->set_milli(v);
  });
}

void SetExhaustion(const store::ForecastRunHeader& run, const store::ForecastSeriesRecord& series, int64_t hours,
                   v1::Forecast& answer) {
  // A day past the horizon asked for is "not within the horizon" here.
  const absl::Time end = run.forecast_start + absl::Hours(hours);
  v1::Exhaustion* exhaustion = answer.mutable_exhaustion();
  if (series.exhaustion_p50 && *series.exhaustion_p50 < end) {
    *exhaustion->mutable_p50_day() = ToProtoTimestamp(*series.exhaustion_p50);
  }
  if (series.exhaustion_p90 && *series.exhaustion_p90 < end) {
    *exhaustion->mutable_p90_day() = ToProtoTimestamp(*series.exhaustion_p90);
  }
}

}  // namespace

absl::StatusOr<v1::Forecast> ForecastQuery::Run(const Scope& scope, const v1::GetForecastRequest& request) const {
  FLEETCAP_ASSIGN_OR_RETURN(const CheckedForecastRequest checked, CheckForecastRequest(scope, request));
  const std::string& what = checked.what;
  FLEETCAP_ASSIGN_OR_RETURN(auto run, forecasts_->LatestRun());
  if (!run) return absl::NotFoundError("no forecast yet: fleetcap-optimizer stores the first one after its first pass");
  FLEETCAP_ASSIGN_OR_RETURN(auto series, forecasts_->Series(run->run_id, {request.flavor(), request.team(), what}));
  if (!series) {
    return absl::NotFoundError(
        absl::StrCat("forecast run ", run->run_id, " has no ", what, " series of flavor \"", request.flavor(), "\"",
                     request.team().empty() ? "" : absl::StrCat(" and team \"", request.team(), "\"")));
  }
  const int64_t hours = std::min<int64_t>(checked.horizon, run->horizon_hours);
  const bool daily = hours > kForecastHourlyUpToHours;
  v1::Forecast answer = ForecastAnswerHead(request, what, *run, *series, hours, daily);

  // The history's tail: `hours` hours, widened to whole days when daily.
  int64_t tail_hours = hours;
  if (daily)
    tail_hours += (run->forecast_start - DayOf(run->forecast_start - absl::Hours(hours))) / absl::Hours(1) - hours;
  AddHistoryAndBands(*run, *series, hours, tail_hours, daily, answer);

  if (scope.role == Role::kTeam) return answer;
  FLEETCAP_ASSIGN_OR_RETURN(auto capacity, forecasts_->Series(run->run_id, {request.flavor(), "", "capacity"}));
  if (capacity) AddForecastCapacity(*run, *capacity, hours, tail_hours, daily, answer);
  if (what == "held") SetExhaustion(*run, *series, hours, answer);
  return answer;
}

absl::StatusOr<v1::GetForecastRequest> ForecastRequestFromQuery(const HttpQuery& query) {
  v1::GetForecastRequest request;
  // horizon_hours comes from `horizon`, in hours or days.
  QueryMapping mapping;
  mapping.explicit_parameters = {"horizon"};
  mapping.route_fields = {"horizon_hours"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  if (const std::string* horizon = QueryValue(query, "horizon"); horizon != nullptr) {
    absl::string_view text = *horizon;
    int64_t per = 0;
    if (absl::ConsumeSuffix(&text, "h")) {
      per = 1;
    } else if (absl::ConsumeSuffix(&text, "d")) {
      per = 24;
    }
    int64_t count = 0;
    if (per == 0 || text.empty() || text.size() > 6 || !absl::SimpleAtoi(text, &count) || count < 1 ||
        count * per > kMaxForecastHorizonHours || text[0] == '+' || text[0] == '-') {
      return absl::InvalidArgumentError(absl::StrCat(
          "horizon: \"", horizon->substr(0, 64), "\" is not whole hours or days up to 90 days (e.g. 72h, 30d, 90d)"));
    }
    request.set_horizon_hours(static_cast<int32_t>(count * per));
  }
  return request;
}

}  // namespace fleetcap::api
