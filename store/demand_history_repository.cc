#include "store/demand_history_repository.h"

namespace fleetcap::store {

bool HeldHourRecord::operator==(const HeldHourRecord& o) const {
  return cluster == o.cluster && model == o.model && team == o.team && hour == o.hour &&
         held_milli_seconds == o.held_milli_seconds;
}

bool PendingPodRecord::operator==(const PendingPodRecord& o) const {
  return cluster == o.cluster && pod_uid == o.pod_uid && namespace_name == o.namespace_name &&
         team_label == o.team_label && resource_name == o.resource_name && model == o.model &&
         requested_milli == o.requested_milli && pending_from == o.pending_from && pod_name == o.pod_name;
}

}  // namespace fleetcap::store
