#include "services/api/fleet_summary.h"

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "proto_time.h"

namespace fleetcap::api {
namespace {

// The range of google.protobuf.Timestamp: 0001-01-01 to 9999-12-31.
constexpr int64_t kMinSeconds = -62135596800;
constexpr int64_t kMaxSeconds = 253402300799;

absl::StatusOr<absl::Time> InstantOf(const v1::GetFleetSummaryRequest& request, const Clock& clock) {
  if (!request.has_at()) return clock.Now();
  const auto& at = request.at();
  if (at.seconds() < kMinSeconds || at.seconds() > kMaxSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("at.seconds: ", at.seconds(), " is outside 0001-01-01..9999-12-31"));
  }
  if (at.nanos() < 0 || at.nanos() > 999999999) {
    return absl::InvalidArgumentError(absl::StrCat("at.nanos: ", at.nanos(), " is outside 0..999999999"));
  }
  return FromProtoTimestamp(at);
}

}  // namespace

absl::StatusOr<v1::FleetSummary> FleetSummaryQuery::Run(const v1::GetFleetSummaryRequest& request) const {
  auto at = InstantOf(request, *clock_);
  if (!at.ok()) return at.status();
  auto counts = inventory_->SummarizeAt(request.cluster(), *at);
  if (!counts.ok()) return counts.status();

  v1::FleetSummary summary;
  summary.set_cluster(request.cluster());
  *summary.mutable_at() = ToProtoTimestamp(*at);
  for (const auto& count : *counts) {
    auto* model = summary.add_models();
    model->set_model(count.model);
    model->set_devices(count.devices);
    model->set_held_milli(count.held_milli);
    summary.set_devices(summary.devices() + count.devices);
    summary.set_held_milli(summary.held_milli() + count.held_milli);
  }
  if (teams_ != nullptr) {
    auto held = teams_->HeldByTeamAt(request.cluster(), *at);
    if (!held.ok()) return held.status();
    for (const auto& [team, milli] : *held) {
      auto* line = summary.add_teams();
      line->set_team(team);
      line->set_held_milli(milli);
    }
  }
  return summary;
}

absl::StatusOr<v1::GetFleetSummaryRequest> FleetSummaryRequestFromQuery(const std::string& cluster,
                                                                        const std::string* at) {
  v1::GetFleetSummaryRequest request;
  request.set_cluster(cluster);
  if (at != nullptr) {
    auto t = ParseRfc3339("at", *at);
    if (!t.ok()) return t.status();
    *request.mutable_at() = ToProtoTimestamp(*t);
  }
  return request;
}

}  // namespace fleetcap::api
