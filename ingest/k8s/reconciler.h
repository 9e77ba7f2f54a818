#pragma once
// Keeps the store's inventory of one cluster equal to what the Kubernetes API
// says, from the objects a list/watch client hands it: nodes and their
// devices in service, accelerator pods with their team evidence and
// workload, their holds from container start to termination, unmet demand
// while they wait unscheduled, and the namespaces' team labels.
//
// What a pod's tenant writes is trusted only where the active policy says
// so: GPU-sharing annotations size a hold only in namespaces the policy's
// `trusted_pods` list for gpu_share; elsewhere the device request does. The
// policy in force when a hold opens decides its size, once.
//
// Restart-safe: Start() loads what the store has open for the cluster, so
// holds already written keep their devices and times, holds are never
// written twice, and what vanished while no ingest ran is closed when the
// first full list shows it gone (the *Listed calls), never dropped.
//
// Changes accumulate until Flush(), which writes them in one batch. One
// record the store cannot take costs only itself: records are checked one by
// one before the batch is written, and when the store still refuses the
// batch, its parts are written in order down to the single records it
// refuses, which are set aside in the quarantine (source "k8s") with their
// reason. Only an outage keeps changes pending, to be written whole by the
// next Flush. Not thread-safe: one thread feeds and flushes it.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/k8s/accelerators.h"
#include "ingest/k8s/holds.h"
#include "ingest/k8s/metrics.h"
#include "ingest/k8s/objects.h"
#include "ingest/k8s/team.h"
#include "policy/team_resolution.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::k8s {

struct ReconcilerOptions {
  std::string cluster;
  AcceleratorConfig accelerators;
  TeamConfig teams;
};

class Reconciler {
 public:
  // `repo` and `clock` must outlive the reconciler; `metrics` may be null.
  Reconciler(ReconcilerOptions options, store::LiveInventoryRepository* repo, K8sMetrics* metrics, const Clock* clock);

  // Loads the cluster's open inventory and the active policy.
  absl::Status Start();
  // The policy version now active (ignored if it is the one in use; a
  // document that does not parse is logged and the previous one kept).
  void SetPolicy(const store::ActivePolicyText& active);

  // An object listed, added or modified, seen at `observed`.
  void Namespace(const NamespaceObject& ns);
  void Controller(const ControllerObject& controller);
  void Node(const NodeObject& node, absl::Time observed);
  void Pod(const PodObject& pod, absl::Time observed);
  // An object deleted (a DELETED event), seen at `observed`.
  void NamespaceDeleted(const std::string& name);
  void ControllerDeleted(const std::string& uid);
  void NodeDeleted(const std::string& name, absl::Time observed);
  void PodDeleted(const PodObject& pod, absl::Time observed);
  // A pod deleted whose last state could not be read: it ends at `observed`.
  void PodGone(const std::string& uid, absl::Time observed);

  // Sets `record` aside in the quarantine with the next Flush, counted by
  // `reason` (a metric label) and logged once.
  void SetAside(store::QuarantineRecord record, const std::string& reason);

  // A complete list of pods begins: until PodsListed, pods that need devices
  // assigned wait, so that what vanished frees its devices first and the rest
  // are assigned in a fixed order (by start, then uid) whatever the list's.
  void PodsRelistStarted() { relisting_pods_ = true; }

  // A complete list ended (after its items were passed in): whatever it did
  // not contain vanished, and is closed at `observed`.
  void NamespacesListed(const std::set<std::string>& names);
  void ControllersListed(const std::string& kind, const std::set<std::string>& uids);
  void NodesListed(const std::set<std::string>& names, absl::Time observed);
  void PodsListed(const std::set<std::string>& uids, absl::Time observed);

  // Changes not yet written.
  size_t pending() const { return pending_.size(); }
  absl::Status Flush();

  size_t pods_tracked() const { return pods_.size(); }

 private:
  struct HoldRow {
    std::string device_id;
    int index = -1;  // on its node; -1 when unknown
    int32_t milli = 0;
    absl::Time from;
    std::optional<absl::Time> to;
    uint64_t counted_in = 0;  // the node generation whose load it is counted in; 0: none
  };
  struct DemandRow {
    absl::Time from;
    std::optional<absl::Time> to;
  };
  struct PodState {
    store::LivePod row;      // as written (or loaded)
    bool row_known = false;  // `row` is what the store has
    bool orphan = false;     // known only by an open hold or wait: its pod row must not be rewritten
    std::map<std::string, std::string> team_labels;
    std::optional<OwnerRef> owner;
    bool owner_known = false;
    std::vector<HoldRow> holds;
    std::optional<DemandRow> demand;
  };
  struct DeviceRow {
    std::string device_id;
    std::string model;
    absl::Time from;
  };
  struct NodeState {
    bool seen = false;  // listed or watched by this process
    store::LiveNode row;
    bool row_open = false;
    NodeAccelerators accelerators;
    std::vector<DeviceRow> devices;  // open rows, by index
    // Milli held per device index by open holds, also on devices no longer
    // in service (a pod keeps a GPU its node stopped advertising), so a
    // device that comes back is not given out twice. Never shrinks.
    std::vector<int32_t> load;
    // Which life of the node under this name: holds counted in an earlier
    // one (a node deleted, then created again) release nothing from `load`.
    uint64_t generation = 0;
  };

  // One observation of a pod, as ApplyPod's steps read it.
  struct Sighting {
    const PodObject& pod;  // as trusted (Trusted())
    absl::Time observed;
    PodTimes times;
    std::optional<absl::Time> deleted_at;  // when deleted: when it stopped holding (DeletionTime)
    PodDemand demand;
    NodeState* node;  // its node, when bound to one seen
  };

  void ApplyPod(const PodObject& pod, absl::Time observed, bool deleted);
  NodeState* SeenNode(const std::string& name);
  void OpenHolds(const Sighting& s, std::optional<absl::Time> end, PodState& st);
  void CloseHolds(const std::string& uid, const std::string& node, absl::Time at, PodState& st);
  void TrackDemand(const Sighting& s, PodState& st);
  void CloseDemand(const std::string& uid, absl::Time at, PodState& st);
  store::LivePod RowOf(const Sighting& s, const PodState& st);
  void Vanish(const std::string& uid, absl::Time at);
  void ForgetPod(const std::string& uid);
  void Refresh(PodState& state);
  void WriteRow(PodState& state, store::LivePod row);
  const PodObject& Trusted(const PodObject& pod, PodObject& stripped) const;
  void CloseNode(NodeState& node, absl::Time at);
  NodeState& NodeNamed(const std::string& name);
  void AdjustLoad(const std::string& node, HoldRow& hold, int sign);
  void SetAsideInvalid(store::InventoryChanges& batch);
  absl::Status Write(store::InventoryChanges batch);
  void Requeue(store::InventoryChanges unwritten);

  ReconcilerOptions options_;
  store::LiveInventoryRepository* repo_;
  K8sMetrics* metrics_;
  const Clock* clock_;  // when records are set aside

  policy::TeamResolver trust_;  // what the active policy trusts; nothing until one is read
  int32_t policy_version_ = -1;
  std::map<std::string, NamespaceObject> namespaces_;
  ControllerIndex controllers_;
  absl::flat_hash_map<std::string, std::string> controller_kinds_;       // uid -> kind
  std::map<std::string, std::set<std::string>> waiting_for_controller_;  // owner uid -> pod uids
  std::map<std::string, NodeState> nodes_;
  uint64_t last_generation_ = 0;
  std::map<std::string, std::vector<std::pair<PodObject, absl::Time>>> awaiting_node_;
  absl::flat_hash_map<std::string, PodState> pods_;
  std::set<std::string> types_written_;
  bool relisting_pods_ = false;
  std::vector<std::pair<PodObject, absl::Time>> deferred_;

  store::InventoryChanges pending_;
};

}  // namespace fleetcap::k8s
