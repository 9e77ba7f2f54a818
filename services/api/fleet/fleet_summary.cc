#include "services/api/fleet/fleet_summary.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "proto_time.h"
#include "services/api/query_message.h"
#include "services/api/request_time.h"

namespace fleetcap::api {
namespace {

absl::StatusOr<absl::Time> InstantOf(const v1::GetFleetSummaryRequest& request, const Clock& clock) {
  if (!request.has_at()) return clock.Now();
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("at", request.at()));
  return FromProtoTimestamp(request.at());
}

absl::Status TooLarge(absl::string_view field) {
  return absl::OutOfRangeError(absl::StrCat(field, ": the total over models does not fit in a signed 64-bit integer"));
}

// Milli-devices used on average per model over the last closed hour before
// `at` (as the chargeback computed it; an hour not computed yet reads 0).
absl::StatusOr<std::map<std::string, int64_t>> UsedByModel(const store::ChargebackReadRepository& lines,
                                                           const std::string& cluster, absl::Time at) {
  store::ChargebackFilter filter;
  filter.end = absl::FromCivil(absl::CivilHour(absl::ToCivilHour(at, absl::UTCTimeZone())), absl::UTCTimeZone());
  filter.start = filter.end - absl::Hours(1);
  filter.cluster = cluster;
  store::ChargebackGroupBy group_by;
  group_by.model = true;
  FLEETCAP_ASSIGN_OR_RETURN(const auto sums, lines.Lines(filter, group_by, store::ChargebackResolution::kNone));
  std::map<std::string, int64_t> used;
  for (const auto& sum : sums) used[sum.model] += sum.used_milli_seconds / 3600;
  return used;
}

}  // namespace

absl::StatusOr<v1::FleetSummary> FleetSummaryQuery::Run(const Scope& scope,
                                                        const v1::GetFleetSummaryRequest& request) const {
  return Run(PolicyVersionOf(scope), request);
}

absl::StatusOr<v1::FleetSummary> FleetSummaryQuery::Run(int32_t up_to,
                                                        const v1::GetFleetSummaryRequest& request) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto at, InstantOf(request, *clock_));
  FLEETCAP_ASSIGN_OR_RETURN(auto counts, inventory_->SummarizeAt(request.cluster(), at));
  std::map<std::string, int64_t> used;
  if (lines_ != nullptr) {
    FLEETCAP_ASSIGN_OR_RETURN(used, UsedByModel(*lines_, request.cluster(), at));
  }

  v1::FleetSummary summary;
  summary.set_cluster(request.cluster());
  *summary.mutable_at() = ToProtoTimestamp(at);
  int64_t devices = 0, held_milli = 0;
  for (const auto& count : counts) {
    auto* model = summary.add_models();
    model->set_model(count.model);
    model->set_devices(count.devices);
    model->set_held_milli(count.held_milli);
    if (auto u = used.find(count.model); u != used.end()) model->set_used_milli(u->second);
    // A total that does not fit is an error, never a wrapped (negative) figure.
    if (__builtin_add_overflow(devices, count.devices, &devices)) return TooLarge("devices");
    if (__builtin_add_overflow(held_milli, count.held_milli, &held_milli)) return TooLarge("held_milli");
  }
  summary.set_devices(devices);
  summary.set_held_milli(held_milli);
  if (teams_ != nullptr) {
    FLEETCAP_ASSIGN_OR_RETURN(auto held, teams_->HeldByTeamAt(request.cluster(), at, up_to));
    for (const auto& [team, milli] : held) {
      auto* line = summary.add_teams();
      line->set_team(team);
      line->set_held_milli(milli);
    }
  }
  return summary;
}

absl::StatusOr<v1::GetFleetSummaryRequest> FleetSummaryRequestFromQuery(const HttpQuery& query) {
  v1::GetFleetSummaryRequest request;
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request));
  return request;
}

}  // namespace fleetcap::api
