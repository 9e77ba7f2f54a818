#include "services/api/insights/spend_change_query.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/insights/spend_change.h"
#include "proto_time.h"
#include "services/api/request_time.h"

namespace fleetcap::api {
namespace {

// Workloads listed under each driver: 0 asks for the default.
constexpr int32_t kDefaultTop = 5;
constexpr int32_t kMaxTop = 100;

struct CheckedRequest {
  absl::Time previous_start, start, end;
  int top = kDefaultTop;
};

absl::Status CheckWholeHour(const char* field, absl::Time t) {
  if (store::IsWholeHour(t)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": ", FormatRfc3339(t), " is not a whole hour (UTC); chargeback is kept per hour"));
}

absl::StatusOr<CheckedRequest> Check(const v1::GetSpendChangeRequest& request) {
  if (!request.has_start()) return absl::InvalidArgumentError("start: missing; give the current window's first hour");
  if (!request.has_end()) return absl::InvalidArgumentError("end: missing; give the hour after the current window");
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("start", request.start()));
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("end", request.end()));
  CheckedRequest checked;
  checked.start = FromProtoTimestamp(request.start());
  checked.end = FromProtoTimestamp(request.end());
  if (checked.end <= checked.start) {
    return absl::InvalidArgumentError(
        absl::StrCat("end: ", FormatRfc3339(checked.end), " is not after start ", FormatRfc3339(checked.start)));
  }
  FLEETCAP_RETURN_IF_ERROR(CheckWholeHour("start", checked.start));
  FLEETCAP_RETURN_IF_ERROR(CheckWholeHour("end", checked.end));
  if (checked.end - checked.start > kMaxChargebackWindow) {
    return absl::InvalidArgumentError(absl::StrCat("end: ", FormatRfc3339(checked.end), " is more than ",
                                                   kMaxChargebackWindow / absl::Hours(24),
                                                   " days after start; compare shorter windows"));
  }
  checked.previous_start = checked.start - (checked.end - checked.start);
  if (!CheckRequestTime("start", ToProtoTimestamp(checked.previous_start)).ok()) {
    return absl::InvalidArgumentError("start: the previous window, as long as [start, end), would begin before 0001");
  }
  if (request.top() < 0 || request.top() > kMaxTop) {
    return absl::InvalidArgumentError(absl::StrCat("top: ", request.top(), " is not in 0..", kMaxTop));
  }
  if (request.top() > 0) checked.top = request.top();
  return checked;
}

insights::SpendLine ToSpendLine(store::ChargebackSum&& s) {
  return {std::move(s.team),    std::move(s.namespace_name), std::move(s.workload), std::move(s.model),
          std::move(s.cluster), std::move(s.line_kind),      s.held_milli_seconds,  s.direct_cost_micro,
          s.idle_cost_micro,    s.shared_cost_micro,         s.total_cost_micro};
}

void ToReport(const insights::SpendChange& change, v1::SpendChangeReport* report) {
  report->set_previous_cost_micro(change.previous_cost_micro);
  report->set_current_cost_micro(change.current_cost_micro);
  report->set_change_micro(change.change_micro);
  for (const insights::SpendDriver& d : change.drivers) {
    v1::SpendDriver* driver = report->add_drivers();
    driver->set_name(d.name);
    driver->set_change_micro(d.change_micro);
    for (const insights::SpendContribution& c : d.top) {
      v1::SpendContribution* top = driver->add_top();
      top->set_team(c.team);
      top->set_namespace_(c.namespace_name);
      top->set_workload(c.workload);
      top->set_model(c.model);
      top->set_change_micro(c.change_micro);
    }
  }
}

}  // namespace

absl::StatusOr<v1::GetSpendChangeRequest> SpendChangeRequestFromQuery(const HttpQuery& query) {
  QueryMapping mapping;
  mapping.required = {"start", "end"};
  return RequestFromQuery<v1::GetSpendChangeRequest>(query, mapping);
}

absl::StatusOr<v1::SpendChangeReport> SpendChangeQuery::Run(const Scope& scope,
                                                            const v1::GetSpendChangeRequest& request) const {
  FLEETCAP_ASSIGN_OR_RETURN(const CheckedRequest checked, Check(request));
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));
  v1::SpendChangeReport report;
  *report.mutable_previous_start() = ToProtoTimestamp(checked.previous_start);
  *report.mutable_start() = ToProtoTimestamp(checked.start);
  *report.mutable_end() = ToProtoTimestamp(checked.end);
  report.set_currency(policy->valid ? policy->document.currency : policy::PolicyDocument{}.currency);

  store::ChargebackFilter filter;
  FLEETCAP_ASSIGN_OR_RETURN(filter.teams, ChargebackTeams(scope, request.team(), *policy));
  filter.namespace_name = request.namespace_();
  filter.max_lines = max_lines_;
  // Every key the engine tells workloads, models and line kinds apart by.
  const store::ChargebackGroupBy group_by{true, true, true, true, true, true};
  const auto resolution = store::ChargebackResolution::kNone;
  std::vector<store::ChargebackFilter> windows(2, filter);
  windows[0].start = checked.previous_start;
  windows[0].end = windows[1].start = checked.start;
  windows[1].end = checked.end;

  // A team token left with no team it may read reads nothing (an empty
  // selector would select every team): the drivers, all zero.
  const bool reads_nothing = scope.role == Role::kTeam && filter.teams.empty();
  // Declared before the lines, so that it is given back after them.
  std::optional<HeavyReads::Place> heavy;
  if (heavy_reads_ != nullptr && !reads_nothing) {
    int64_t rows = 0;
    for (const store::ChargebackFilter& w : windows) {
      FLEETCAP_ASSIGN_OR_RETURN(const int64_t r, lines_->RowsRead(w, group_by, resolution));
      rows += r;
    }
    FLEETCAP_ASSIGN_OR_RETURN(auto place, heavy_reads_->Admit(scope.token_id, rows));
    heavy.emplace(std::move(place));
  }
  std::vector<insights::SpendLine> lines[2];
  for (size_t w = 0; w < 2 && !reads_nothing; ++w) {
    FLEETCAP_ASSIGN_OR_RETURN(auto sums, lines_->Lines(windows[w], group_by, resolution));
    if (static_cast<int64_t>(sums.size()) > max_lines_) {
      return absl::ResourceExhaustedError(absl::StrCat(
          w == 0 ? "the previous" : "the current", " window has more than ", max_lines_,
          " chargeback lines by workload, model and cluster; narrow the scope (team, namespace) or the window"));
    }
    for (store::ChargebackSum& s : sums) lines[w].push_back(ToSpendLine(std::move(s)));
  }
  absl::StatusOr<insights::SpendChange> change = insights::ExplainSpendChange(lines[0], lines[1], checked.top);
  // The stored lines are the engine's own: one it refuses is the store's fault, not the caller's.
  if (change.status().code() == absl::StatusCode::kInvalidArgument) {
    return absl::InternalError(absl::StrCat("stored chargeback: ", change.status().message()));
  }
  if (!change.ok()) return change.status();
  ToReport(*change, &report);
  return report;
}

}  // namespace fleetcap::api
