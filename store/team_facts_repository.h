#pragma once
// What resolving teams reads (policy/team_resolution.h): the team evidence
// the ingest keeps, and the policy versions with when each took effect. The
// API and the optimizer resolve with it; nothing here decides a team.
// Implementations are thread-safe.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "store/control_records.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::store {

// One pod, with the evidence of its team and (for HoldersAt) what it held.
struct PodTeamEvidence {
  std::string cluster;
  std::string namespace_name;
  std::string team_label;  // pods.team: the pod's own label, "" when none
  int64_t held_milli = 0;
};

class TeamFactsRepository {
 public:
  virtual ~TeamFactsRepository() = default;

  // Pods holding devices in service at `at`, in `cluster` ("" every cluster):
  // a row a pod, or pods of one (cluster, namespace, team label) summed in
  // one row (what the PostgreSQL store keeps for "now"); callers sum by team.
  virtual absl::StatusOr<std::vector<PodTeamEvidence>> HoldersAt(const std::string& cluster, absl::Time at) = 0;
  // Pods of `namespace_name` in `cluster` that existed at some time of [start, end).
  virtual absl::StatusOr<std::vector<PodTeamEvidence>> PodsOfNamespace(const std::string& cluster,
                                                                       const std::string& namespace_name,
                                                                       absl::Time start, absl::Time end) = 0;
  // The team labels and annotations kept of namespaces of `cluster` ("" every
  // cluster; `namespace_name` "" every namespace), by (cluster, namespace).
  virtual absl::StatusOr<std::map<std::pair<std::string, std::string>, NamespaceLabels>> Namespaces(
      const std::string& cluster, const std::string& namespace_name) = 0;
  // Policy versions numbered above `after_version`, oldest first.
  virtual absl::StatusOr<std::vector<PolicyVersionRecord>> PoliciesAfter(int32_t after_version) = 0;
};

}  // namespace fleetcap::store
