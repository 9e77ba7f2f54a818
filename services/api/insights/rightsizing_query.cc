#include "services/api/insights/rightsizing_query.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "google/protobuf/util/time_util.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

using google::protobuf::util::TimeUtil;

// A recommendation and its cluster, which the store keeps on its run.
struct Found {
  const std::string* cluster;
  const store::RightsizingRecord* record;
};

void Fill(const Found& f, v1::RightsizingRecommendation* out) {
  const store::RightsizingRecord& r = *f.record;
  out->set_team(r.team);
  out->set_namespace_(r.namespace_name);
  out->set_workload(r.workload);
  out->set_cluster(*f.cluster);
  out->set_model(r.model);
  out->set_kind(r.kind);
  out->set_current(r.current);
  out->set_proposed(r.proposed);
  out->set_current_milli(r.current_milli);
  out->set_proposed_milli(r.proposed_milli);
  out->set_savings_micro_per_month(r.savings_micro_per_month);
  out->set_evidence(r.evidence);
  out->set_observed_minutes(r.observed_minutes);
  out->set_confidence(r.confidence);
  out->set_p95_active_devices(r.p95_active_devices);
  out->set_p95_activity(r.p95_activity);
  out->set_p99_memory_bytes(r.p99_memory_bytes);
}

// The most one would save acting on one recommendation per workload: the
// kinds of one workload are alternatives, so only its largest counts.
int64_t TotalSavings(const std::vector<Found>& found) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, int64_t> largest;
  for (const Found& f : found) {
    int64_t& best = largest[{*f.cluster, f.record->namespace_name, f.record->workload, f.record->model}];
    best = std::max(best, f.record->savings_micro_per_month);
  }
  int64_t total = 0;
  for (const auto& [key, saving] : largest) total += saving;
  return total;
}

// The lookback the answer stands on: from the earliest start to the latest
// end of the runs read, and the oldest computation among them.
void SetLookback(const std::vector<store::RightsizingRun>& runs, v1::RightsizingReport& report) {
  if (runs.empty()) return;
  absl::Time start = runs[0].lookback_start, end = runs[0].lookback_end, computed = runs[0].computed_at;
  for (const store::RightsizingRun& run : runs) {
    start = std::min(start, run.lookback_start);
    end = std::max(end, run.lookback_end);
    computed = std::min(computed, run.computed_at);
  }
  *report.mutable_start() = TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(start));
  *report.mutable_end() = TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(end));
  *report.mutable_computed_at() = TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(computed));
}

}  // namespace

absl::StatusOr<v1::RightsizingReport> RightsizingQuery::Run(const Scope& scope,
                                                            const v1::GetRightsizingRequest& request) const {
  if (request.limit() < 0 || request.limit() > kMaxRightsizingRows) {
    return absl::InvalidArgumentError(
        absl::StrCat("limit: ", request.limit(), " is not between 0 and ", kMaxRightsizingRows, " (0: 50)"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));
  v1::RightsizingReport report;
  report.set_currency(policy->valid ? policy->document.currency : policy::PolicyDocument{}.currency);
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> teams, ChargebackTeams(scope, request.team(), *policy));
  // A team token left with no team it may read reads nothing.
  if (scope.role == Role::kTeam && teams.empty()) return report;
  store::RightsizingFilter filter{request.cluster(), request.namespace_(), std::nullopt};
  if (!teams.empty()) filter.teams = std::set<std::string>(teams.begin(), teams.end());
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<store::RightsizingRun> runs, recommendations_->Latest(filter));
  SetLookback(runs, report);
  if (!runs.empty()) report.set_currency(runs[0].currency);
  std::vector<Found> found;
  for (const store::RightsizingRun& run : runs) {
    for (const store::RightsizingRecord& r : run.recommendations) found.push_back({&run.cluster, &r});
  }
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    if (a.record->savings_micro_per_month != b.record->savings_micro_per_month) {
      return a.record->savings_micro_per_month > b.record->savings_micro_per_month;
    }
    return *a.cluster < *b.cluster;  // each run's own order after that
  });
  report.set_recommendation_count(static_cast<int32_t>(found.size()));
  report.set_savings_micro_per_month(TotalSavings(found));
  const size_t limit = request.limit() == 0 ? kDefaultRightsizingRows : static_cast<size_t>(request.limit());
  for (size_t i = 0; i < found.size() && i < limit; ++i) Fill(found[i], report.add_recommendations());
  return report;
}

absl::StatusOr<v1::GetRightsizingRequest> RightsizingRequestFromQuery(const HttpQuery& query) {
  return RequestFromQuery<v1::GetRightsizingRequest>(query);
}

}  // namespace fleetcap::api
