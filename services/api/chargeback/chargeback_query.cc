#include "services/api/chargeback/chargeback_query.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/api/chargeback/chargeback_line.h"
#include "services/api/query_message.h"
#include "services/api/request_time.h"
#include "services/exports/chargeback_format.h"

namespace fleetcap::api {
namespace {

// Team names the attribution engine writes lines under that no policy may
// define: the idle kept and the pods no rule maps. No team token reads them.
constexpr const char* kReservedTeams[] = {"idle", "unassigned"};

bool Reserved(const std::string& team) {
  return std::find(std::begin(kReservedTeams), std::end(kReservedTeams), team) != std::end(kReservedTeams);
}

// What a team token may read: its subtree, never a reserved line.
bool TeamTokenReads(const Scope& scope, const std::string& team) { return scope.Covers(team) && !Reserved(team); }

// A request that passed validation, in the store's terms.
struct CheckedRequest {
  store::ChargebackFilter filter;
  store::ChargebackGroupBy group_by;
  store::ChargebackResolution resolution = store::ChargebackResolution::kNone;
};

absl::Status CheckWholeHour(const char* field, absl::Time t) {
  if (store::IsWholeHour(t)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": ", FormatRfc3339(t), " is not a whole hour (UTC); chargeback is kept per hour"));
}

absl::Status AddGroupBy(const std::string& field, store::ChargebackGroupBy* group_by) {
  if (field == "team") {
    group_by->team = true;
  } else if (field == "cluster") {
    group_by->cluster = true;
  } else if (field == "namespace") {
    group_by->namespace_name = true;
  } else if (field == "workload") {
    group_by->workload = true;
  } else if (field == "model") {
    group_by->model = true;
  } else if (field == "line_kind") {
    group_by->line_kind = true;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("group_by: \"", field.substr(0, 64), "\" is not one of ",
                                                   absl::StrJoin(exports::kChargebackGroupByFields, ", ")));
  }
  return absl::OkStatus();
}

absl::StatusOr<store::ChargebackResolution> StoreResolution(v1::ChargebackResolution resolution) {
  switch (resolution) {
    case v1::CHARGEBACK_RESOLUTION_HOUR:
      return store::ChargebackResolution::kHour;
    case v1::CHARGEBACK_RESOLUTION_DAY:
      return store::ChargebackResolution::kDay;
    case v1::CHARGEBACK_RESOLUTION_MONTH:
      return store::ChargebackResolution::kMonth;
    case v1::CHARGEBACK_RESOLUTION_NONE:
      return store::ChargebackResolution::kNone;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("resolution: ", static_cast<int>(resolution), " is not a chargeback resolution"));
  }
}

absl::StatusOr<CheckedRequest> Check(const v1::GetChargebackRequest& request) {
  CheckedRequest checked;
  if (!request.has_start()) return absl::InvalidArgumentError("start: missing; give the window's first hour");
  if (!request.has_end()) return absl::InvalidArgumentError("end: missing; give the hour after the window");
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("start", request.start()));
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("end", request.end()));
  const absl::Time start = FromProtoTimestamp(request.start()), end = FromProtoTimestamp(request.end());
  if (end <= start) {
    return absl::InvalidArgumentError(
        absl::StrCat("end: ", FormatRfc3339(end), " is not after start ", FormatRfc3339(start)));
  }
  FLEETCAP_RETURN_IF_ERROR(CheckWholeHour("start", start));
  FLEETCAP_RETURN_IF_ERROR(CheckWholeHour("end", end));
  if (end - start > kMaxChargebackWindow) {
    return absl::InvalidArgumentError(absl::StrCat("end: ", FormatRfc3339(end), " is more than ",
                                                   kMaxChargebackWindow / absl::Hours(24),
                                                   " days after start; ask for several windows"));
  }
  for (const std::string& field : request.group_by()) FLEETCAP_RETURN_IF_ERROR(AddGroupBy(field, &checked.group_by));
  FLEETCAP_ASSIGN_OR_RETURN(checked.resolution, StoreResolution(request.resolution()));
  if (!request.line_kind().empty() && std::find_if(std::begin(store::kChargebackLineKinds),
                                                   std::end(store::kChargebackLineKinds), [&](const char* kind) {
                                                     return request.line_kind() == kind;
                                                   }) == std::end(store::kChargebackLineKinds)) {
    return absl::InvalidArgumentError(absl::StrCat("line_kind: \"", request.line_kind().substr(0, 64),
                                                   "\" is not one of ",
                                                   absl::StrJoin(store::kChargebackLineKinds, ", ")));
  }
  checked.filter.start = start;
  checked.filter.end = end;
  checked.filter.cluster = request.cluster();
  checked.filter.namespace_name = request.namespace_();
  checked.filter.workload = request.workload();
  checked.filter.model = request.model();
  checked.filter.line_kind = request.line_kind();
  return checked;
}

}  // namespace

// The teams whose lines the answer sums: `team` and those under it in the
// active policy (just `team` when the policy does not know it: lines may
// outlive the team that earned them), cut to what `scope` may read. Empty
// means every team; only callers that may read everything get that.
absl::StatusOr<std::vector<std::string>> ChargebackTeams(const Scope& scope, const std::string& team,
                                                         const ActivePolicy& policy) {
  const bool team_token = scope.role == Role::kTeam;
  if (team.empty() && !team_token) return std::vector<std::string>{};
  if (team_token && !team.empty() && !TeamTokenReads(scope, team)) return OutOfScope("team");
  std::vector<std::string> teams;
  if (team.empty()) {
    teams = scope.teams;
  } else {
    if (policy.valid) teams = policy::Subtree(policy.document, team);
    if (teams.empty()) teams = {team};
  }
  if (team_token) {
    teams.erase(
        std::remove_if(teams.begin(), teams.end(), [&](const std::string& t) { return !TeamTokenReads(scope, t); }),
        teams.end());
  }
  return teams;
}

absl::StatusOr<v1::GetChargebackRequest> ChargebackRequestFromQuery(const HttpQuery& query,
                                                                    const QueryMapping& route_mapping) {
  v1::GetChargebackRequest request;
  QueryMapping mapping = route_mapping;
  mapping.required = {"start", "end"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  return request;
}

absl::StatusOr<v1::ChargebackReport> ChargebackQuery::Run(const Scope& scope,
                                                          const v1::GetChargebackRequest& request) const {
  google::protobuf::RepeatedPtrField<v1::ChargebackLine> lines;
  FLEETCAP_ASSIGN_OR_RETURN(v1::ChargebackReport report,
                            Each(scope, request, [&](v1::ChargebackLine&& line) { *lines.Add() = std::move(line); }));
  report.mutable_lines()->Swap(&lines);
  return report;
}

absl::StatusOr<v1::ChargebackReport> ChargebackQuery::Each(
    const Scope& scope, const v1::GetChargebackRequest& request,
    const std::function<void(v1::ChargebackLine&&)>& line) const {
  FLEETCAP_ASSIGN_OR_RETURN(CheckedRequest checked, Check(request));
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));
  v1::ChargebackReport report;
  // Without a policy applied (or a valid one), the document's default currency.
  report.set_currency(policy->valid ? policy->document.currency : policy::PolicyDocument{}.currency);
  FLEETCAP_ASSIGN_OR_RETURN(checked.filter.teams, ChargebackTeams(scope, request.team(), *policy));
  // A team token left with no team it may read reads nothing (an empty
  // selector would select every team).
  if (scope.role == Role::kTeam && checked.filter.teams.empty()) return report;

  // The store stops one line past the bound, so a refused answer never costs more memory than an answered one.
  checked.filter.max_lines = max_lines_;
  // Declared before the lines, so that it is given back after them.
  std::optional<HeavyReads::Place> heavy;
  if (heavy_reads_ != nullptr) {
    FLEETCAP_ASSIGN_OR_RETURN(const int64_t rows,
                              lines_->RowsRead(checked.filter, checked.group_by, checked.resolution));
    FLEETCAP_ASSIGN_OR_RETURN(auto place, heavy_reads_->Admit(scope.token_id, rows));
    heavy.emplace(std::move(place));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto sums, lines_->Lines(checked.filter, checked.group_by, checked.resolution));
  if (static_cast<int64_t>(sums.size()) > max_lines_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the answer has more than ", max_lines_,
                     " lines; narrow the window, filter, group by fewer fields or use a coarser resolution"));
  }
  int64_t total = 0;
  for (const store::ChargebackSum& sum : sums) {
    FLEETCAP_RETURN_IF_ERROR(store::AddChecked(sum.total_cost_micro, &total, "total_cost_micro"));
  }
  report.set_total_cost_micro(total);
  for (const store::ChargebackSum& sum : sums) line(ToLine(sum));
  return report;
}

}  // namespace fleetcap::api
