#include "services/api/fleet/device_holds.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "proto_time.h"
#include "services/api/fleet/asset_window.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

// The team of each hold's pod at the hold's start in the window: one
// resolution per distinct instant, the pods of that instant together.
absl::StatusOr<std::vector<std::string>> TeamsOfHolds(const std::string& cluster,
                                                      const std::vector<store::DeviceHoldTime>& holds,
                                                      TeamAttribution& teams, int32_t up_to) {
  std::map<absl::Time, std::vector<size_t>> by_start;
  for (size_t i = 0; i < holds.size(); ++i) by_start[holds[i].from].push_back(i);
  std::vector<std::string> out(holds.size());
  for (const auto& [at, indexes] : by_start) {
    std::vector<store::PodTeamEvidence> evidence;
    for (size_t i : indexes)
      evidence.push_back({cluster, holds[i].namespace_name, holds[i].team_label, holds[i].milli});
    FLEETCAP_ASSIGN_OR_RETURN(const auto resolved, teams.TeamsOfPodsAt(evidence, at, up_to));
    for (size_t k = 0; k < indexes.size(); ++k) out[indexes[k]] = resolved[k];
  }
  return out;
}

void FillHold(const store::DeviceHoldTime& hold, const std::string& team, v1::DeviceHold* out) {
  out->set_pod(hold.pod.empty() ? hold.pod_uid : hold.pod);
  out->set_namespace_(hold.namespace_name);
  if (!hold.workload_name.empty()) out->set_workload(absl::StrCat(hold.workload_kind, "/", hold.workload_name));
  out->set_team(team);
  out->set_milli(hold.milli);
  *out->mutable_held_from() = ToProtoTimestamp(hold.from);
  *out->mutable_held_to() = ToProtoTimestamp(hold.to);
  out->set_held_seconds(absl::ToInt64Seconds(hold.to - hold.from));
  out->set_held_milli_seconds(store::HeldMilliSeconds(hold.milli, hold.from, hold.to));
}

}  // namespace

absl::StatusOr<v1::DeviceHolds> DeviceHoldsQuery::Run(const Scope& scope,
                                                      const v1::ListDeviceHoldsRequest& request) const {
  if (scope.role == Role::kTeam) return OutOfScope("assets");
  FLEETCAP_ASSIGN_OR_RETURN(const AssetWindow window,
                            CheckAssetWindow(request.has_start(), request.start(), request.has_end(), request.end()));
  if (request.cluster().empty()) return absl::InvalidArgumentError("cluster: missing; give the device's cluster");
  if (request.device().empty()) return absl::InvalidArgumentError("device: missing; give the device's id");
  FLEETCAP_RETURN_IF_ERROR(CheckAssetFilter("cluster", request.cluster()));
  FLEETCAP_RETURN_IF_ERROR(CheckAssetFilter("device", request.device()));
  // One more than shown says whether the window has more.
  FLEETCAP_ASSIGN_OR_RETURN(auto holds, capacity_->DeviceHolds(request.cluster(), request.device(), window.start,
                                                               window.end, max_holds_ + 1));
  v1::DeviceHolds answer;
  answer.set_cluster(request.cluster());
  answer.set_device(request.device());
  if (static_cast<int>(holds.size()) > max_holds_) {
    holds.resize(static_cast<size_t>(max_holds_));
    answer.set_truncated(true);
  }
  FLEETCAP_ASSIGN_OR_RETURN(const auto teams, TeamsOfHolds(request.cluster(), holds, *teams_, PolicyVersionOf(scope)));
  for (size_t i = 0; i < holds.size(); ++i) FillHold(holds[i], teams[i], answer.add_holds());
  return answer;
}

absl::StatusOr<v1::ListDeviceHoldsRequest> DeviceHoldsRequestFromQuery(const HttpQuery& query) {
  v1::ListDeviceHoldsRequest request;
  QueryMapping mapping;
  mapping.required = {"cluster", "device", "start", "end"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  return request;
}

}  // namespace fleetcap::api
