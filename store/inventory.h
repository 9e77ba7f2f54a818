#pragma once
// Inventory facts as ingest writes them and the store keeps them: which
// accelerators were in service, and which pod held how much of which device,
// from when to when. Quantities are integer milli-devices (1000 = one device);
// intervals are half-open [from, to), `to` absent while still open.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace fleetcap::store {

struct AcceleratorType {
  std::string model;          // "T4", "H100-SXM5-80GB", "tpu-v5p"
  std::string vendor;         // "nvidia", "google", "amd", "unknown"
  std::string resource_name;  // "nvidia.com/gpu", "google.com/tpu", ...
};

struct Node {
  std::string name;
  std::string pool;  // node pool or group; empty if unknown
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  absl::Time in_service_from;
  std::optional<absl::Time> in_service_to;
};

struct Device {
  std::string device_id;  // unique in the cluster: a GPU UUID, TPU chip id, ...
  std::string node;
  int32_t index = 0;  // position on the node
  std::string model;
  absl::Time in_service_from;
  std::optional<absl::Time> in_service_to;
};

struct Pod {
  std::string uid;  // unique in the cluster
  std::string namespace_name;
  std::string name;
  std::string team;
  std::string workload_kind;  // top controller kind, "Pod" for a bare pod
  std::string workload_name;
  std::string phase;
  absl::Time created;
  std::optional<absl::Time> scheduled;
  std::optional<absl::Time> deleted;
  int64_t requested_milli = 0;  // accelerator milli-devices asked for
  bool unplaced = false;        // asked for accelerators but never held any
};

struct Hold {
  std::string pod_uid;
  std::string device_id;
  int32_t milli = 0;  // 1..1000
  absl::Time from;
  std::optional<absl::Time> to;
};

// Everything known about one cluster's inventory, as one replaceable unit.
struct ClusterInventory {
  std::string cluster;
  std::vector<AcceleratorType> types;
  std::vector<Node> nodes;
  std::vector<Device> devices;
  std::vector<Pod> pods;
  std::vector<Hold> holds;
};

}  // namespace fleetcap::store
