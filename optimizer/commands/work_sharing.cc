#include "optimizer/commands/work_sharing.h"

#include <functional>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "store/session_lock.h"

namespace fleetcap::optimizer {

std::string ClusterLockName(const std::string& cluster) {
  return absl::StrCat("fleetcap-optimizer.chargeback:", cluster);
}

std::vector<std::string> RotatedClusters(const std::vector<std::string>& clusters, uint64_t offset) {
  std::vector<std::string> out;
  out.reserve(clusters.size());
  for (size_t i = 0; i < clusters.size(); ++i) out.push_back(clusters[(offset + i) % clusters.size()]);
  return out;
}

uint64_t InstanceOffset(const std::string& host, int64_t pid) {
  // FNV-1a: stable across builds and runs, unlike std::hash.
  uint64_t h = 14695981039346656037ull;
  for (const char c : absl::StrCat(host, "/", pid)) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

absl::StatusOr<bool> WorkLocks::TryFleet() {
  if (fleet_) return true;
  FLEETCAP_ASSIGN_OR_RETURN(fleet_, store::TrySessionLock(*conn_, kFleetLockName, "taking the optimizer's fleet lock"));
  return fleet_;
}

absl::Status WorkLocks::WaitFleet() {
  if (fleet_) return absl::OkStatus();
  FLEETCAP_RETURN_IF_ERROR(store::HoldSessionLock(*conn_, kFleetLockName, "waiting for the optimizer's fleet lock"));
  fleet_ = true;
  return absl::OkStatus();
}

absl::StatusOr<bool> WorkLocks::TryCluster(const std::string& cluster) {
  return store::TrySessionLock(*conn_, ClusterLockName(cluster), absl::StrCat("taking the lock of cluster ", cluster));
}

absl::Status WorkLocks::WaitCluster(const std::string& cluster) {
  return store::HoldSessionLock(*conn_, ClusterLockName(cluster),
                                absl::StrCat("waiting for the lock of cluster ", cluster));
}

absl::Status WorkLocks::ReleaseCluster(const std::string& cluster) {
  return store::ReleaseSessionLock(*conn_, ClusterLockName(cluster),
                                   absl::StrCat("releasing the lock of cluster ", cluster));
}

absl::StatusOr<SharedPassReport> SharedPass(chargeback::ChargebackRun& run, WorkLocks& locks, uint64_t offset,
                                            const std::atomic<bool>* stop,
                                            const std::function<void(const std::string&, int64_t)>& on_cluster) {
  SharedPassReport out;
  out.pass = run.BeginPass();
  const bool had_fleet = locks.holds_fleet();
  FLEETCAP_ASSIGN_OR_RETURN(out.fleet, locks.TryFleet());
  if (out.fleet && !had_fleet) Logger("optimizer")->info("took the fleet lock: this instance does the fleet's work");
  if (out.fleet) FLEETCAP_RETURN_IF_ERROR(run.MarkPolicyChanges(&out.pass));

  absl::Status first_error;
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> clusters, run.Clusters());
  for (const std::string& cluster : RotatedClusters(clusters, offset)) {
    if (stop != nullptr && stop->load()) break;
    FLEETCAP_ASSIGN_OR_RETURN(const bool taken, locks.TryCluster(cluster));
    if (!taken) {
      out.busy.push_back(cluster);
      continue;
    }
    const int64_t hours_before = out.pass.computed.hours;
    const absl::Status done = run.ClusterPass(cluster, stop, &out.pass);
    // Released whatever happened: another instance may do better.
    const absl::Status released = locks.ReleaseCluster(cluster);
    if (!done.ok()) {
      Logger("optimizer")->error("cluster {}: {}", cluster, done.ToString());
      if (first_error.ok()) first_error = done;
      continue;
    }
    FLEETCAP_RETURN_IF_ERROR(released);
    out.clusters.push_back(cluster);
    if (on_cluster) on_cluster(cluster, out.pass.computed.hours - hours_before);
  }
  if (out.fleet) {
    const absl::Status fleet = run.FleetPass(stop, &out.pass);
    if (!fleet.ok() && first_error.ok()) first_error = fleet;
  }
  if (!first_error.ok()) return first_error;
  return out;
}

}  // namespace fleetcap::optimizer
