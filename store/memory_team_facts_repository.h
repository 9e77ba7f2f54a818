#pragma once
// TeamFactsRepository in memory, for unit tests: the pods, holds, namespace
// labels and policy versions it is given, read as on PostgreSQL.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/team_facts_repository.h"

namespace fleetcap::store {

class MemoryTeamFactsRepository : public TeamFactsRepository {
 public:
  // A pod, existing over [created_at, deleted_at).
  struct Pod {
    std::string cluster;
    std::string pod_uid;
    std::string namespace_name;
    std::string team_label;  // "" when none
    absl::Time created_at;
    std::optional<absl::Time> deleted_at;
  };
  // `milli` of one device held by a pod over [held_from, held_to), and when
  // that device was in service: a hold counts only while its device is.
  struct Hold {
    std::string cluster;
    std::string pod_uid;
    int64_t milli = 0;
    absl::Time held_from;
    std::optional<absl::Time> held_to;
    absl::Time device_in_service_from = absl::InfinitePast();
    std::optional<absl::Time> device_in_service_to;
  };

  void AddPod(Pod pod);
  void AddHold(Hold hold);
  // Replaces what is kept of namespace `ns.name` of `cluster`.
  void AddNamespace(const std::string& cluster, NamespaceLabels ns);
  // Applies `document` as the next version at `applied_at`; returns its number.
  int32_t Apply(std::string document, absl::Time applied_at);

  absl::StatusOr<std::vector<PodTeamEvidence>> HoldersAt(const std::string& cluster, absl::Time at) override;
  absl::StatusOr<std::vector<PodTeamEvidence>> PodsOfNamespace(const std::string& cluster,
                                                               const std::string& namespace_name, absl::Time start,
                                                               absl::Time end) override;
  absl::StatusOr<std::map<std::pair<std::string, std::string>, NamespaceLabels>> Namespaces(
      const std::string& cluster, const std::string& namespace_name) override;
  absl::StatusOr<std::vector<PolicyVersionRecord>> PoliciesAfter(int32_t after_version) override;

 private:
  std::mutex mu_;
  std::map<std::pair<std::string, std::string>, Pod> pods_;  // by (cluster, pod_uid)
  std::vector<Hold> holds_;
  std::map<std::pair<std::string, std::string>, NamespaceLabels> namespaces_;  // by (cluster, namespace)
  std::vector<PolicyVersionRecord> policies_;
};

}  // namespace fleetcap::store
