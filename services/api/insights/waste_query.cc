#include "services/api/insights/waste_query.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/insights/waste_summary.h"
#include "proto_time.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/request_time.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {
namespace {

absl::StatusOr<store::WasteFilter> CheckWasteRequest(const v1::GetWasteRequest& request) {
  if (!request.has_start()) return absl::InvalidArgumentError("start: missing; give the window's first hour");
  if (!request.has_end()) return absl::InvalidArgumentError("end: missing; give the hour after the window");
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("start", request.start()));
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("end", request.end()));
  const absl::Time start = FromProtoTimestamp(request.start()), end = FromProtoTimestamp(request.end());
  if (!store::IsWholeHour(start)) {
    return absl::InvalidArgumentError(absl::StrCat("start: ", FormatRfc3339(start), " is not a whole UTC hour"));
  }
  if (!store::IsWholeHour(end)) {
    return absl::InvalidArgumentError(absl::StrCat("end: ", FormatRfc3339(end), " is not a whole UTC hour"));
  }
  if (end <= start) {
    return absl::InvalidArgumentError(
        absl::StrCat("end: ", FormatRfc3339(end), " is not after start ", FormatRfc3339(start)));
  }
  if (end - start > kMaxWasteWindow) {
    return absl::InvalidArgumentError(absl::StrCat("end: ", FormatRfc3339(end), " is more than ",
                                                   kMaxWasteWindow / absl::Hours(24),
                                                   " days after start; ask for several windows"));
  }
  if (request.limit() < 0 || request.limit() > kMaxWasteLimit) {
    return absl::InvalidArgumentError(absl::StrCat("limit: ", request.limit(), " is out of range (1..", kMaxWasteLimit,
                                                   ", 0 for ", kDefaultWasteLimit, ")"));
  }
  return store::WasteFilter{start, end, {}, request.namespace_(), request.cluster()};
}

// Each stored piece as a run of its own, for insights::JoinRuns.
std::vector<insights::IdleRun> PiecesAsRuns(const std::vector<store::IdlePieceRecord>& pieces) {
  std::vector<insights::IdleRun> out;
  out.reserve(pieces.size());
  for (const store::IdlePieceRecord& p : pieces) {
    insights::IdleRun r;
    r.cluster = p.cluster;
    r.pod_uid = p.pod_uid;
    r.namespace_name = p.namespace_name;
    r.team = p.team;
    r.workload = p.workload;
    r.model = p.model;
    r.run_start = r.start = p.start;
    r.end = p.end;
    r.devices_milli = p.devices_milli;
    r.wasted_milli_seconds = p.wasted_milli_seconds;
    r.wasted_cost_micro = p.wasted_cost_micro;
    r.activity_milli_seconds = p.activity_milli_seconds;
    r.sm_milli_seconds = p.sm_milli_seconds;
    out.push_back(std::move(r));
  }
  return out;
}

// Each workload's sums as the waste engine's tally.
std::vector<insights::WorkloadWaste> WorkloadsOf(const std::vector<store::WorkloadWasteRecord>& sums) {
  std::vector<insights::WorkloadWaste> out;
  out.reserve(sums.size());
  for (const store::WorkloadWasteRecord& s : sums) {
    insights::WorkloadWaste w;
    w.team = s.time.team;
    w.namespace_name = s.time.namespace_name;
    w.workload = s.time.workload;
    w.tally.held_milli_seconds = s.time.held_milli_seconds;
    w.tally.observed_milli_seconds = s.time.observed_milli_seconds;
    w.tally.active_milli_seconds = s.time.active_milli_seconds;
    w.tally.sm_observed_milli_seconds = s.time.sm_observed_milli_seconds;
    w.tally.both_minutes = s.time.both_minutes;
    w.tally.both_held_milli_seconds = s.time.both_held_milli_seconds;
    w.tally.both_duty_milli_seconds = s.time.both_duty_milli_seconds;
    w.tally.both_sm_milli_seconds = s.time.both_sm_milli_seconds;
    w.tally.wasted_milli_seconds = s.wasted_milli_seconds;
    w.tally.wasted_cost_micro = s.wasted_cost_micro;
    w.tally.run_count = s.run_count;
    out.push_back(std::move(w));
  }
  return out;
}

// Whether a workload is listed: it wasted, or is busy but light.
bool Listable(const insights::WorkloadWaste& w) { return w.tally.wasted_milli_seconds > 0 || w.tally.BusyButLight(); }

// The first `limit` workloads of `summary` the report lists.
std::vector<store::WasteWorkload> ListedWorkloads(const insights::WasteSummary& summary, int32_t limit) {
  std::vector<store::WasteWorkload> out;
  for (const insights::WorkloadWaste& w : summary.workloads) {
    if (static_cast<int32_t>(out.size()) >= limit) break;
    if (Listable(w)) out.push_back({w.team, w.namespace_name, w.workload});
  }
  return out;
}

void FillRun(const insights::IdleRun& r, v1::IdleRun* out) {
  out->set_cluster(r.cluster);
  out->set_pod_uid(r.pod_uid);
  out->set_namespace_(r.namespace_name);
  out->set_workload(r.workload);
  out->set_team(r.team);
  out->set_model(r.model);
  *out->mutable_start() = ToProtoTimestamp(r.start);
  *out->mutable_end() = ToProtoTimestamp(r.end);
  out->set_devices_milli(r.devices_milli);
  out->set_mean_activity(r.MeanActivity());
  out->set_signal(r.Signal());
  out->set_wasted_milli_seconds(r.wasted_milli_seconds);
  out->set_wasted_cost_micro(r.wasted_cost_micro);
}

void FillEfficiency(const std::string& team, const insights::WasteTally& t, v1::EfficiencyScore* out) {
  out->set_team(team);
  out->set_score(t.Efficiency());
  out->set_signal(t.Signal());
  out->set_held_milli_seconds(t.held_milli_seconds);
  out->set_observed_milli_seconds(t.observed_milli_seconds);
  out->set_active_milli_seconds(t.active_milli_seconds);
}

// The workloads with waste or flagged busy but light, the most wasted first, up to `limit`.
void FillWorkloads(const insights::WasteSummary& summary, int32_t limit, v1::WasteReport* report) {
  int32_t listed = 0, count = 0;
  for (const insights::WorkloadWaste& w : summary.workloads) {
    if (!Listable(w)) continue;
    ++count;
    if (listed >= limit) continue;
    ++listed;
    v1::WorkloadWaste* out = report->add_workloads();
    out->set_team(w.team);
    out->set_namespace_(w.namespace_name);
    out->set_workload(w.workload);
    out->set_held_milli_seconds(w.tally.held_milli_seconds);
    out->set_wasted_milli_seconds(w.tally.wasted_milli_seconds);
    out->set_wasted_cost_micro(w.tally.wasted_cost_micro);
    out->set_unknown_milli_seconds(w.tally.UnknownMilliSeconds());
    out->set_run_count(static_cast<int32_t>(w.tally.run_count));
    out->set_busy_but_light(w.tally.BusyButLight());
    for (size_t i = 0; i < w.runs.size() && i < kRunsPerWorkload; ++i) FillRun(w.runs[i], out->add_runs());
  }
  report->set_workload_count(count);
}

}  // namespace

absl::StatusOr<v1::GetWasteRequest> WasteRequestFromQuery(const HttpQuery& query) {
  v1::GetWasteRequest request;
  QueryMapping mapping;
  mapping.required = {"start", "end"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  return request;
}

absl::StatusOr<v1::WasteReport> WasteQuery::Run(const Scope& scope, const v1::GetWasteRequest& request) const {
  FLEETCAP_ASSIGN_OR_RETURN(store::WasteFilter filter, CheckWasteRequest(request));
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));
  const policy::PolicyDocument& document = policy->valid ? policy->document : policy::PolicyDocument{};
  v1::WasteReport report;
  *report.mutable_start() = request.start();
  *report.mutable_end() = request.end();
  report.set_currency(document.currency);
  report.set_idle_below(static_cast<double>(document.insights.idle_below_basis_points) / 10000.0);
  report.set_idle_for_seconds(absl::ToInt64Seconds(document.insights.idle_for));
  FLEETCAP_ASSIGN_OR_RETURN(filter.teams, ChargebackTeams(scope, request.team(), *policy));
  // A team token left with no team it may read reads nothing (an empty
  // selector would select every team).
  if (scope.role == Role::kTeam && filter.teams.empty()) return report;

  // The figures from the sums of the window (its whole days from the days
  // kept); the runs read for the workloads listed only.
  FLEETCAP_ASSIGN_OR_RETURN(std::vector<store::WorkloadWasteRecord> sums, waste_->WasteSums(filter));
  insights::WasteSummary summary = insights::SummarizeWorkloads(WorkloadsOf(sums));
  const int32_t limit = request.limit() == 0 ? kDefaultWasteLimit : request.limit();
  filter.workloads = ListedWorkloads(summary, limit);
  if (!filter.workloads.empty()) {
    filter.max_pieces = max_pieces_;
    FLEETCAP_ASSIGN_OR_RETURN(std::vector<store::IdlePieceRecord> pieces, waste_->Pieces(filter));
    if (static_cast<int64_t>(pieces.size()) > max_pieces_) {
      return absl::ResourceExhaustedError(absl::StrCat("the workloads listed hold more than ", max_pieces_,
                                                       " hours of idle runs; narrow the window or filter"));
    }
    insights::AddRuns(insights::JoinRuns(PiecesAsRuns(pieces)), &summary);
  }

  FillWorkloads(summary, limit, &report);
  for (const insights::TeamWaste& t : summary.teams) {
    v1::TeamWaste* team = report.add_teams();
    team->set_team(t.team);
    team->set_wasted_milli_seconds(t.tally.wasted_milli_seconds);
    team->set_wasted_cost_micro(t.tally.wasted_cost_micro);
    team->set_unknown_milli_seconds(t.tally.UnknownMilliSeconds());
    FillEfficiency(t.team, t.tally, report.add_efficiency());
  }
  FillEfficiency("", summary.fleet, report.add_efficiency());
  report.set_wasted_milli_seconds(summary.fleet.wasted_milli_seconds);
  report.set_wasted_cost_micro(summary.fleet.wasted_cost_micro);
  report.set_unknown_milli_seconds(summary.fleet.UnknownMilliSeconds());
  return report;
}

}  // namespace fleetcap::api
