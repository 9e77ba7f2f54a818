#pragma once
// A recommendation set as Kueue objects (kueue.x-k8s.io/v1beta2), for
// `kubectl apply -f -`: a ResourceFlavor per flavor, a Cohort per inner team
// of the policy's org tree (under one root Cohort for the whole fleet, whose
// own quota is the capacity recommended to no team), and a ClusterQueue per
// leaf team whose nominal quotas are the recommendations.
// docs/allocation.md ("Schedulers") maps every field.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"

namespace fleetcap::exports {

struct KueueOptions {
  // The Cohort above the policy's root teams: the water-filling shares each
  // flavor among all roots, so in Kueue they borrow from one another through
  // it. Empty: no root Cohort; a root leaf team's ClusterQueue then has no
  // cohort, and a borrowing or lending limit on it is an error (Kueue's rule).
  std::string root_cohort = "fleetcap";
  // Capacity recommended to no team (a flavor's `capacity` in the policy less
  // every recommendation and the guaranteed capacity lending limits withhold)
  // as the root Cohort's own nominal quota, so that Kueue lets teams borrow it
  // until the next run: capacity in no quota is capacity Kueue never admits.
  bool spare_on_root_cohort = true;
  // Flavor name -> the node labels every node of its model (and pool) carries
  // as the inventory saw them (store::InventoryReader::SharedNodeLabels), e.g.
  // {nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB}: its ResourceFlavor's
  // nodeLabels. A flavor with none known is written `spec: {}` under a
  // comment saying so: it matches every node.
  std::map<std::string, std::map<std::string, std::string>> node_labels;
  // The node label that names a node's pool (e.g. cloud.google.com/gke-nodepool):
  // when set, a flavor with a `pool` selects its nodes by it too (over the
  // inventory's value of that label).
  std::string pool_label;
  // Flavor name -> extended resource, in place of the one its model implies.
  std::map<std::string, std::string> resources;
  // A team's own view: its ClusterQueues only (still naming the Cohort they
  // borrow through). The ResourceFlavors and Cohorts are the fleet's: the
  // root Cohort's quota is the fleet's capacity less the recommendations,
  // and the org Cohorts sit above other teams.
  bool queues_only = false;
};

// Kueue's limits on a ClusterQueue's resourceGroups (validated by its webhook
// and the CRD).
inline constexpr size_t kKueueMaxResourceGroups = 16;
inline constexpr size_t kKueueMaxFlavorsPerGroup = 64;
inline constexpr size_t kKueueMaxResourcesPerGroup = 64;

// A ClusterQueue as built, before it is written: what CheckKueueRules reads.
struct KueueResourceQuota {
  std::string resource;
  int64_t nominal_milli = 0;
  std::optional<int64_t> borrowing_limit_milli;  // none: unlimited
  std::optional<int64_t> lending_limit_milli;    // none: may lend all of its nominal quota
};
struct KueueFlavorQuotas {
  std::string flavor;  // the policy's flavor name (for messages)
  std::string name;    // its ResourceFlavor's name
  std::vector<KueueResourceQuota> resources;
};
struct KueueResourceGroup {
  std::vector<std::string> covered_resources;
  std::vector<KueueFlavorQuotas> flavors;
};
struct KueueClusterQueue {
  std::string owner = "team";  // what `team` names in messages: "team", or "root cohort"
  std::string team;            // the policy's team name (for messages)
  std::string name;
  std::string cohort;  // empty: none
  int64_t weight = 1;
  std::vector<std::string> namespaces;  // the policy's exact namespaces of the team
  std::vector<KueueResourceGroup> resource_groups;
};

// Kueue's rules on a ClusterQueue: at most 16 resource groups, at most 64
// flavors and 64 covered resources per group, every flavor of a group lists
// exactly the group's covered resources in their order, no resource or
// flavor in two groups, no borrowing or lending limit without a cohort, and
// a lending limit within the nominal quota. INVALID_ARGUMENT naming the team
// and the flavor.
absl::Status CheckKueueRules(const KueueClusterQueue& queue);

// Kueue's borrowingLimit and lendingLimit of one recommendation as
// KueueManifests writes them (Kubernetes quantities; none: left out), so that
// what people are shown is what the scheduler is given.
struct KueueLimits {
  std::optional<std::string> borrowing_limit;
  std::optional<std::string> lending_limit;
};
KueueLimits KueueLimitsOf(const allocation::Recommendation& row);

// The manifests, as YAML documents separated by `---`, in a fixed order
// (ResourceFlavors, Cohorts, ClusterQueues, each by name; ClusterQueues alone
// with `queues_only`). Errors
// (INVALID_ARGUMENT): those of PrepareExport (scheduler_export.h), names
// that collide once made Kubernetes names, and sets Kueue cannot express
// (CheckKueueRules), each naming the team and flavor.
absl::StatusOr<std::string> KueueManifests(const std::vector<allocation::Recommendation>& rows,
                                           const policy::PolicyDocument& policy, const KueueOptions& options = {});

}  // namespace fleetcap::exports
