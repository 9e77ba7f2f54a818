#include "store/attribution_facts_repository.h"

#include <cmath>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"

namespace fleetcap::store {

bool DeviceInServiceRecord::operator==(const DeviceInServiceRecord& o) const {
  return std::tie(device_id, node, model, from, to) == std::tie(o.device_id, o.node, o.model, o.from, o.to);
}

bool HoldFactRecord::operator==(const HoldFactRecord& o) const {
  return std::tie(pod_uid, namespace_name, team_label, workload, device_id, milli, from, to) ==
         std::tie(o.pod_uid, o.namespace_name, o.team_label, o.workload, o.device_id, o.milli, o.from, o.to);
}

bool UsedMinuteRecord::operator==(const UsedMinuteRecord& o) const {
  return std::tie(pod_uid, device_id, minute, used_milli) == std::tie(o.pod_uid, o.device_id, o.minute, o.used_milli);
}

bool ClusterHistoryRecord::operator==(const ClusterHistoryRecord& o) const {
  return std::tie(cluster, first_in_service) == std::tie(o.cluster, o.first_in_service);
}

absl::Status CheckFactsWindow(const std::string& cluster, absl::Time start, absl::Time end) {
  if (end < start) {
    return absl::InvalidArgumentError(absl::StrCat("attribution facts of ", cluster, ": window end ",
                                                   FormatRfc3339(end), " is before its start ", FormatRfc3339(start)));
  }
  return absl::OkStatus();
}

int64_t UsedMilli(double util_mean) {
  // NaN, infinities and absurd readings would not round to an int64.
  if (!(std::fabs(util_mean) <= 1e6)) return -1;
  return static_cast<int64_t>(std::llround(util_mean * 1000));
}

}  // namespace fleetcap::store
