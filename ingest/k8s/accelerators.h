#pragma once
// What accelerators a node has, and how much of them a pod's request is, read
// from the labels and extended resources that the vendors' device plugins and
// feature discovery publish:
//
//   nvidia.com/gpu            whole GPUs; or, with GPU feature discovery's
//                             nvidia.com/mig.strategy=single and a product
//                             label ending in -MIG-<profile>, MIG devices of
//                             one profile; or, with nvidia.com/gpu.replicas=R
//                             (time-slicing), R replicas per GPU
//   nvidia.com/gpu.shared     time-sliced replicas (renameByDefault)
//   nvidia.com/mig-<profile>  MIG devices of one profile (mixed strategy):
//                             GPU instances (3g.40gb) or compute instances
//                             (1c.3g.20gb), time-sliced when labelled
//                             nvidia.com/mig-<profile>.replicas
//   google.com/tpu            TPU chips (cloud.google.com/gke-tpu-accelerator,
//                             cloud.google.com/gke-tpu-topology)
//   amd.com/gpu               AMD GPUs (amd.com/gpu.product-name)
//
// Devices are the physical accelerators; a request is converted to
// milli-devices per DESIGN.md: a whole device is 1000, a MIG slice its share
// of the parent's compute slices (3g.40gb on a 7-slice GPU = 428, rounded
// down so slices never sum past a device), a time-sliced replica 1000/R, and
// a fractional-share annotation (GPU-sharing schedulers) as given.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ingest/k8s/objects.h"

namespace fleetcap::k8s {

struct AcceleratorConfig {
  // Labels naming the model, first present wins.
  std::vector<std::string> nvidia_model_labels = {"nvidia.com/gpu.product", "cloud.google.com/gke-accelerator"};
  std::vector<std::string> amd_model_labels = {"amd.com/gpu.product-name", "beta.amd.com/gpu.product-name"};
  std::vector<std::string> tpu_model_labels = {"cloud.google.com/gke-tpu-accelerator"};
  std::string tpu_topology_label = "cloud.google.com/gke-tpu-topology";
  // Labels naming the node's pool, first present wins.
  std::vector<std::string> pool_labels = {"cloud.google.com/gke-nodepool", "eks.amazonaws.com/nodegroup",
                                          "kubernetes.azure.com/agentpool", "karpenter.sh/nodepool"};
  // The model of a device whose node has no model label.
  std::string fallback_model = "unknown";
  // Compute slices of a MIG-capable GPU, by a substring of its model; others have default_mig_slices.
  std::map<std::string, int> mig_slices = {{"A30", 4}};
  int default_mig_slices = 7;
  // GPU-sharing scheduler annotations on pods: milli-GPUs per GPU, GPU count,
  // and the GPU indices assigned (e.g. "0" or "0-1").
  std::string share_milli_annotation = "alibabacloud.com/gpu-milli";
  std::string share_count_annotation = "alibabacloud.com/gpu-count";
  std::string device_index_annotation = "alibabacloud.com/gpu-index";
};

// How an accelerator resource's units become milli-devices.
struct ResourceUnit {
  int32_t milli = 1000;  // per unit
  bool whole = true;     // a unit takes an entire device
};

// A node's accelerators. `devices` == 0 for a node without any.
struct NodeAccelerators {
  std::string vendor;                         // "nvidia", "google", "amd"
  std::string model;                          // "A100-SXM4-40GB", "tpu-v5p", ...
  std::string resource_name;                  // the base resource: nvidia.com/gpu, google.com/tpu, amd.com/gpu
  std::string family;                         // device id part: "gpu", "tpu", "amd-gpu"
  std::string sharing;                        // "", "mig-single", "mig-mixed", "time-slicing"
  std::string topology;                       // TPU slice topology, e.g. "2x2x1"
  std::string model_label_key;                // the label that named the model ("" when none did)
  std::string model_label_value;              // its raw value, e.g. NVIDIA-A100-SXM4-40GB-MIG-3g.20gb
  int32_t devices = 0;                        // physical devices in service (from allocatable)
  int32_t replicas = 1;                       // time-slicing replicas per device
  std::map<std::string, ResourceUnit> units;  // every accelerator resource the node offers

  bool operator==(const NodeAccelerators& o) const {
    return vendor == o.vendor && model == o.model && resource_name == o.resource_name && family == o.family &&
           devices == o.devices && topology == o.topology;
  }
};

NodeAccelerators DescribeNode(const NodeObject& node, const AcceleratorConfig& config);

// The node's pool from the configured labels ("" when none).
std::string NodePool(const NodeObject& node, const AcceleratorConfig& config);

// The label that named the node's pool (the first of pool_labels present; ""
// when none).
std::string NodePoolLabel(const NodeObject& node, const AcceleratorConfig& config);

// "<node>/<family><index>": unique in a cluster because node names are.
std::string DeviceId(const std::string& node, const std::string& family, int index);

// The inverse of DeviceId: false for an id it did not make.
bool ParseDeviceId(const std::string& device_id, std::string* node, int* index);

// True for the resources this file understands (nvidia.com/gpu, nvidia.com/mig-*, ...).
bool IsAcceleratorResource(const std::string& resource);

// The compute slices of a MIG profile name ("3g.40gb" -> 3; a compute
// instance "1c.3g.20gb" -> 1; 0 if not one).
int MigProfileSlices(const std::string& profile);

// The effective request of each extended resource, in milli-units, by the
// scheduler's rules: per resource, the larger of (a) the sum over app
// containers plus restartable (sidecar) init containers and (b) for each
// ordinary init container, its own request plus the sidecars started before
// it; plus the pod overhead. A container's limit stands in for a request it
// does not make (extended resources default their request to the limit).
std::map<std::string, int64_t> EffectiveRequests(const PodObject& pod);

// Whether a pod's accelerator quantities fit the milli-device arithmetic. The
// API server accepts quantities (e.g. nvidia.com/gpu: "9223372036854775")
// whose milli-devices, summed over containers or rounded up to whole devices,
// no longer fit in int64: OUT_OF_RANGE naming the pod and the field. What
// passes cannot overflow EffectiveRequests, DemandOn or DemandUnbound.
absl::Status CheckDemandArithmetic(const PodObject& pod);

// One group of units a pod asks for.
struct UnitDemand {
  std::string resource;
  int64_t count = 0;
  ResourceUnit unit;
};

struct PodDemand {
  std::vector<UnitDemand> units;    // empty: the pod asks for no accelerator
  std::vector<int> device_indices;  // from the device-index annotation, if any
  std::string model;                // a model the pod selects (nodeSelector), "" for any

  bool empty() const { return units.empty(); }
  int64_t TotalMilli() const;
};

// What the pod asks for on `node` (whose accelerators are `accelerators`).
// Resources the node does not describe are converted as on a node without
// sharing (MIG profiles by their slices over the default parent).
PodDemand DemandOn(const PodObject& pod, const NodeAccelerators& accelerators, const AcceleratorConfig& config);

// What an unbound pod asks for, converted without a node (time-sliced and
// shared GPUs count as whole ones; MIG profiles over the default parent).
PodDemand DemandUnbound(const PodObject& pod, const AcceleratorConfig& config);

}  // namespace fleetcap::k8s
