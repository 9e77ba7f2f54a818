#pragma once
// What measured demand is made of (docs/allocation.md, "Measured demand"):
// the held device time of each team per hour, from the chargeback's workload
// lines, and the pods waiting for accelerators now, from the live inventory.
// The optimizer reads it before each allocation run; store/ decides no team
// and no flavor (the held lines carry the team the chargeback resolved; a
// pending pod carries the evidence its team is resolved from).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// A team's held device time on one model in one cluster over one hour.
struct HeldHourRecord {
  std::string cluster;
  std::string model;
  std::string team;
  absl::Time hour;  // the hour's start
  int64_t held_milli_seconds = 0;

  bool operator==(const HeldHourRecord& o) const;
};

// A pod waiting for accelerators, with its team evidence.
struct PendingPodRecord {
  std::string cluster;
  std::string pod_uid;
  std::string namespace_name;  // "" when the pod itself was never stored
  std::string team_label;      // the pod's own team label, "" when none
  std::string resource_name;
  std::string model;  // the model it selects, "" for any
  int64_t requested_milli = 0;
  absl::Time pending_from;
  std::string pod_name = "";  // "" when the pod itself was never stored

  bool operator==(const PendingPodRecord& o) const;
};

class DemandHistoryRepository {
 public:
  virtual ~DemandHistoryRepository() = default;

  // The workload lines' held device time (above zero) per cluster, model,
  // team and hour of [start, end), ordered by cluster, model, team, hour.
  // `idle`, `shared` and `fixed` lines hold nothing of a team's own.
  virtual absl::StatusOr<std::vector<HeldHourRecord>> HeldHours(absl::Time start, absl::Time end) = 0;

  // Pods waiting at `at`: their wait began at or before `at` and had not
  // ended by then, and the pod was not deleted by then. The oldest waits
  // first, at most `limit` of them (a bound on what one run reads),
  // ties by cluster and pod.
  virtual absl::StatusOr<std::vector<PendingPodRecord>> PendingAt(absl::Time at, int64_t limit) = 0;
};

}  // namespace fleetcap::store
