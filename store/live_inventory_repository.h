#pragma once
// The inventory is written as changes, and only so: open and close nodes,
// devices, holds and unmet demand as they happen, upsert pods and their
// workloads. The Kubernetes ingest sends them as it follows a live cluster;
// the trace replay sends a whole recorded history as one batch
// (store/cluster_inventory_changes.h). Readers read through InventoryReader.
//
// Every change is idempotent, so a batch applied twice (an ingest killed
// after its commit but before it knew, then restarted) changes nothing the
// second time: opening an open row keeps it; closing a closed row keeps the
// first close; a hold or demand inserted closed closes an open one. A batch
// is applied atomically. LoadLive returns what a restarted ingest resumes
// from, so it neither duplicates nor loses a hold.
//
// Implementations are thread-compatible: share one between threads only with
// outside locking, or give each thread its own.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "store/inventory.h"
#include "store/inventory_reader.h"
#include "store/quarantine_repository.h"

namespace fleetcap::store {

// A pod asking for accelerators that waits unscheduled: [from, to).
struct DemandWait {
  std::string pod_uid;
  std::string resource_name;
  std::string model;  // the model it selects, "" for any
  int64_t requested_milli = 0;
  absl::Time from;
  std::optional<absl::Time> to;
};

// A node with what only a live cluster tells.
struct LiveNode {
  LiveNode() = default;
  LiveNode(Node n, std::string slice_topology) : node(std::move(n)), topology(std::move(slice_topology)) {}

  Node node;
  std::string topology;  // TPU slice topology, "" for other accelerators
  // The node labels that named its model and its pool, as the node carried
  // them: a scheduler selects the node by them. "" when no label did (a
  // replayed trace whose nodes have none).
  std::string model_label_key;    // e.g. nvidia.com/gpu.product
  std::string model_label_value;  // e.g. NVIDIA-A100-SXM4-40GB (the raw value, not the model)
  std::string pool_label_key;     // e.g. cloud.google.com/gke-nodepool; its value is node.pool
};

// A pod with the node it is bound to ("" while unbound).
struct LivePod {
  Pod pod;
  std::string node;
};

// The team evidence of a namespace: its labels and annotations under the
// keys the ingest keeps (the policy decides which of them name a team).
struct NamespaceLabels {
  std::string name;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
};

// The newest policy version applied (0 and "" when none).
struct ActivePolicyText {
  int32_t version = 0;
  std::string document;
};

// Closes the open row that started at `from` (nodes: by name; devices: by
// device id; holds: by pod and device; demand: by pod) at `to` (raised to
// `from` if earlier).
struct Close {
  std::string key;
  std::string device_id;  // holds only
  absl::Time from;
  absl::Time to;
};

struct InventoryChanges {
  std::string cluster;
  std::vector<AcceleratorType> types;       // inserted when the model is new
  std::vector<NamespaceLabels> namespaces;  // each replaces what was kept of that namespace
  std::vector<LiveNode> nodes;              // upserted by (name, in_service_from)
  std::vector<Close> close_nodes;
  std::vector<Device> devices;  // upserted by (device_id, in_service_from)
  std::vector<Close> close_devices;
  std::vector<LivePod> pods;  // upserted by uid; their workloads upserted too
  std::vector<Hold> holds;    // inserted by (pod, device, from)
  std::vector<Close> close_holds;
  std::vector<DemandWait> demands;  // upserted by (pod, from)
  std::vector<Close> close_demands;
  // Records set aside instead of stored, kept in the same transaction as the
  // rest, so a batch and what was set aside from it are stored together.
  std::vector<QuarantineRecord> quarantine;

  size_t size() const {
    return types.size() + namespaces.size() + nodes.size() + close_nodes.size() + devices.size() +
           close_devices.size() + pods.size() + holds.size() + close_holds.size() + demands.size() +
           close_demands.size() + quarantine.size();
  }
  bool empty() const { return size() == 0; }
};

// What a cluster has open or alive: the state an ingest resumes from.
struct LiveInventory {
  std::vector<LiveNode> nodes;      // in service (open)
  std::vector<Device> devices;      // in service (open)
  std::vector<LivePod> pods;        // not deleted
  std::vector<Hold> holds;          // every hold of those pods, open or closed
  std::vector<DemandWait> demands;  // every wait of those pods
};

class LiveInventoryRepository : public InventoryReader {
 public:
  // Applies every change in one transaction (creating the cluster if new).
  // INVALID_ARGUMENT when a record cannot be stored: naming the record for a
  // malformed one (empty key, milli outside 1..1000, interval ending before
  // it starts), or with the database's words for a value it cannot hold (a
  // time outside its range, a NUL byte in text). Any other error is the
  // store's own (an outage): the same changes can be applied again later.
  virtual absl::Status Apply(const InventoryChanges& changes) = 0;

  // Open nodes and devices, live pods with their holds and waits. An unknown
  // cluster has an empty one.
  virtual absl::StatusOr<LiveInventory> LoadLive(const std::string& cluster) = 0;

  // The newest policy version: what decides which pod metadata the ingest
  // trusts when it opens a hold.
  virtual absl::StatusOr<ActivePolicyText> ActivePolicy() = 0;
};

// The checks Apply makes before writing anything (shared by implementations).
absl::Status ValidateChanges(const InventoryChanges& changes);

}  // namespace fleetcap::store
