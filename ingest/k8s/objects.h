#pragma once
// The parts of Kubernetes objects that fleetcap reads, decoded from their JSON
// wire form (a list item or a watch event's object). Everything else is
// dropped at decode time, so a cluster of 200,000 pods costs little memory.
//
// Resource quantities are integer milli-units (ParseQuantityMilli). Only
// extended resources (names with a domain, such as nvidia.com/gpu) are kept
// for pods; nodes keep all of theirs.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json_fwd.hpp"

namespace fleetcap::k8s {

struct OwnerRef {
  std::string kind;
  std::string name;
  std::string uid;
};

struct NodeObject {
  std::string name;
  std::string uid;
  std::string resource_version;
  absl::Time created;
  std::map<std::string, std::string> labels;
  std::map<std::string, int64_t> capacity;     // milli-units
  std::map<std::string, int64_t> allocatable;  // milli-units
};

struct ContainerResources {
  std::map<std::string, int64_t> requests;  // extended resources only
  std::map<std::string, int64_t> limits;
  bool restartable = false;  // an init container with restartPolicy Always (a sidecar)
};

struct PodObject {
  std::string uid;
  std::string namespace_name;
  std::string name;
  std::string resource_version;
  std::string node_name;  // spec.nodeName: set once bound
  std::string phase;      // status.phase
  absl::Time created;
  std::optional<absl::Time> deletion;              // metadata.deletionTimestamp
  std::map<std::string, std::string> labels;       // only the keys asked for
  std::map<std::string, std::string> annotations;  // only the keys asked for
  std::map<std::string, std::string> node_selector;
  std::optional<OwnerRef> controller;  // the ownerReference with controller: true
  std::vector<ContainerResources> init_containers;
  std::vector<ContainerResources> containers;
  std::map<std::string, int64_t> overhead;  // spec.overhead, extended resources only

  // From status.
  std::optional<absl::Time> start_time;     // status.startTime (kubelet accepted the pod)
  std::optional<absl::Time> scheduled_at;   // condition PodScheduled=True, lastTransitionTime
  std::optional<absl::Time> first_started;  // earliest container startedAt (any container, any state)
  std::optional<absl::Time> last_finished;  // latest container finishedAt
  int containers_terminated = 0;            // app containers whose current state is terminated
};

// ReplicaSet, Deployment, Job, CronJob, StatefulSet, or any other owner.
struct ControllerObject {
  std::string kind;
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string resource_version;
  std::optional<OwnerRef> controller;
};

struct NamespaceObject {
  std::string name;
  std::string uid;
  std::string resource_version;
  std::map<std::string, std::string> labels;       // only the keys asked for
  std::map<std::string, std::string> annotations;  // only the keys asked for
};

// Which metadata keys to keep for pods and namespaces (nodes keep all labels).
struct DecodeOptions {
  std::set<std::string> pod_labels;
  std::set<std::string> pod_annotations;
  std::set<std::string> namespace_labels;
  std::set<std::string> namespace_annotations;
};

// Each returns INVALID_ARGUMENT naming the object (when its name could be
// read) and the field, e.g. `pod ns/a: spec.containers[0].resources.requests
// ["nvidia.com/gpu"]: "x" is not a resource quantity`.
absl::StatusOr<NodeObject> DecodeNode(const nlohmann::json& object);
absl::StatusOr<PodObject> DecodePod(const nlohmann::json& object, const DecodeOptions& options);
// List items carry no `kind`, so the caller says which kind it listed.
absl::StatusOr<ControllerObject> DecodeController(const nlohmann::json& object, const std::string& kind);
absl::StatusOr<NamespaceObject> DecodeNamespace(const nlohmann::json& object, const DecodeOptions& options);

// metadata.resourceVersion of any object ("" when absent).
std::string ResourceVersionOf(const nlohmann::json& object);

}  // namespace fleetcap::k8s
