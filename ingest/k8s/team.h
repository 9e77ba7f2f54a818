#pragma once
// Who a pod's accelerator time belongs to: the evidence of its team, and its
// workload.
//
// Team: the ingest resolves nothing. It keeps the evidence (the pod's own
// team label, the namespace's labels and annotations under the configured
// keys, default fleetcap.io/team), and whoever reads facts resolves the team
// with the policy in force at the time (policy/team_resolution.h), which
// decides whether a pod's own label counts at all.
//
// Workload: the top controller, found by following controller owner
// references through the controllers seen (Pod -> ReplicaSet -> Deployment,
// Pod -> Job -> CronJob, Pod -> StatefulSet). An owner that was not seen (any
// other kind, or one not listed yet) is the workload by its ownerReference
// kind and name; a pod without an owner is its own workload (kind Pod).

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "ingest/k8s/objects.h"

namespace fleetcap::k8s {

// The label and annotation keys kept as team evidence.
struct TeamConfig {
  std::vector<std::string> pod_label_keys = {"fleetcap.io/team"};
  std::vector<std::string> namespace_label_keys = {"fleetcap.io/team"};
  std::vector<std::string> namespace_annotation_keys = {"fleetcap.io/team"};
};

// The team a pod's own labels name (the first of pod_label_keys that is set),
// "" when none.
std::string PodTeamLabel(const std::map<std::string, std::string>& pod_labels, const TeamConfig& config);

struct WorkloadRef {
  std::string kind;
  std::string name;

  friend bool operator==(const WorkloadRef& a, const WorkloadRef& b) { return a.kind == b.kind && a.name == b.name; }
};

// The controllers seen, by uid. Not thread-safe.
class ControllerIndex {
 public:
  // `watched` are the kinds that are listed and watched: only an owner of
  // such a kind can still appear, so only it is reported as unresolved.
  explicit ControllerIndex(std::vector<std::string> watched = {"ReplicaSet", "Deployment", "Job", "CronJob",
                                                               "StatefulSet"})
      : watched_(std::move(watched)) {}

  void Upsert(const ControllerObject& controller);
  void Remove(const std::string& uid);
  size_t size() const { return by_uid_.size(); }

  // The top controller of `pod`; `unresolved_uid`, if given, is set to the
  // uid of an owner that was not seen (empty when the chain ended normally),
  // so the caller can resolve again once it appears.
  WorkloadRef TopController(const std::string& pod_name, const std::optional<OwnerRef>& owner,
                            std::string* unresolved_uid = nullptr) const;
  WorkloadRef TopController(const PodObject& pod, std::string* unresolved_uid = nullptr) const {
    return TopController(pod.name, pod.controller, unresolved_uid);
  }

 private:
  struct Entry {
    std::string kind;
    std::string name;
    std::optional<OwnerRef> controller;
  };
  std::vector<std::string> watched_;
  absl::flat_hash_map<std::string, Entry> by_uid_;
};

}  // namespace fleetcap::k8s
