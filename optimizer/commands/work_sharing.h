#pragma once
// How several fleetcap-optimizer instances divide the chargeback
// (docs/scaling.md, "The optimizer shares work by cluster"). Each cluster's
// lines are guarded by an advisory lock of its own, taken without waiting for
// one cluster pass and released after it; the fleet's work (marking what new
// policy versions change, the `fixed` lines, the allocation run) by one fleet
// lock, kept once taken. All of an instance's locks are held on one dedicated
// session, so PostgreSQL releases them when the instance dies, however it
// dies, and the others take its clusters on their next pass. An instance
// tries the clusters from its own offset on, so instances starting at the
// same moment mostly take different ones first.

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/pg_pool.h"
#include "optimizer/chargeback/chargeback_run.h"

namespace fleetcap::optimizer {

// The lock names: the fleet's is the one a single instance always held.
inline constexpr const char* kFleetLockName = "fleetcap-optimizer";
std::string ClusterLockName(const std::string& cluster);

// `clusters` tried from `offset` (modulo their number) on, wrapping around.
std::vector<std::string> RotatedClusters(const std::vector<std::string>& clusters, uint64_t offset);

// A per-instance offset from what tells instances apart (host name and pid).
uint64_t InstanceOffset(const std::string& host, int64_t pid);

// The locks of one instance, on the session `conn` (which must outlive this
// and serve nothing else).
class WorkLocks {
 public:
  explicit WorkLocks(pqxx::connection* conn) : conn_(conn) {}

  // Takes the fleet lock if free; true while this instance holds it.
  absl::StatusOr<bool> TryFleet();
  bool holds_fleet() const { return fleet_; }
  // Waits for the fleet lock (`recompute`, which must not miss its hours).
  absl::Status WaitFleet();

  // Takes `cluster`'s lock if no other instance holds it.
  absl::StatusOr<bool> TryCluster(const std::string& cluster);
  // Waits for `cluster`'s lock.
  absl::Status WaitCluster(const std::string& cluster);
  absl::Status ReleaseCluster(const std::string& cluster);

 private:
  pqxx::connection* conn_;
  bool fleet_ = false;
};

// What one instance did in a pass.
struct SharedPassReport {
  chargeback::PassReport pass;
  bool fleet = false;                 // it held the fleet lock and did the fleet's work
  std::vector<std::string> clusters;  // the clusters it computed, in the order it did them
  std::vector<std::string> busy;      // those another instance held
};

// One pass of an instance: the fleet's policy marks if it holds (or takes)
// the fleet lock, then every cluster whose lock it gets, from `offset` on,
// each under its lock, then the fleet's `fixed` lines. A cluster that fails
// is logged and the others go on; the first error is returned once all
// were tried. `on_cluster` is called after each cluster computed, with the
// cluster hours that pass computed of it.
absl::StatusOr<SharedPassReport> SharedPass(chargeback::ChargebackRun& run, WorkLocks& locks, uint64_t offset,
                                            const std::atomic<bool>* stop,
                                            const std::function<void(const std::string&, int64_t)>& on_cluster);

}  // namespace fleetcap::optimizer
