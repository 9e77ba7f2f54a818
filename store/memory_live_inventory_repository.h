#pragma once
// In-memory LiveInventoryRepository for unit tests: the same contract as the
// PostgreSQL one, plus a way to read everything back and to inject failures.

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "store/live_inventory_repository.h"

namespace fleetcap::store {

class MemoryLiveInventoryRepository : public LiveInventoryRepository {
 public:
  absl::Status Apply(const InventoryChanges& changes) override;
  absl::StatusOr<LiveInventory> LoadLive(const std::string& cluster) override;
  absl::StatusOr<ActivePolicyText> ActivePolicy() override { return active_policy_; }
  absl::StatusOr<std::vector<ModelCount>> SummarizeAt(const std::string& cluster, absl::Time at) override;
  absl::StatusOr<std::map<std::string, std::string>> SharedNodeLabels(const std::string& model, const std::string& pool,
                                                                      const std::string& cluster) override;

  // Everything stored for one cluster, keyed as the PostgreSQL tables are.
  struct ClusterState {
    std::map<std::string, AcceleratorType> types;
    std::map<std::string, NamespaceLabels> namespaces;
    std::map<std::pair<std::string, absl::Time>, LiveNode> nodes;
    std::map<std::pair<std::string, absl::Time>, Device> devices;
    std::map<std::string, LivePod> pods;
    std::map<std::tuple<std::string, std::string, absl::Time>, Hold> holds;
    std::map<std::pair<std::string, absl::Time>, DemandWait> demands;
    std::vector<QuarantineRecord> quarantine;  // oldest first
  };
  // nullptr for an unknown cluster.
  const ClusterState* State(const std::string& cluster) const;
  // The clusters written to, by name.
  std::vector<std::string> ClusterNames() const;

  void SetActivePolicy(int32_t version, std::string document) { active_policy_ = {version, std::move(document)}; }
  // The next `n` Apply calls fail with UNAVAILABLE and change nothing.
  void FailNextApplies(int n) { fail_applies_ = n; }
  // Apply refuses (INVALID_ARGUMENT, changing nothing) every batch holding a
  // record whose RecordKey contains `text`, as PostgreSQL refuses a value it
  // cannot hold.
  void RefuseRecordsMentioning(std::string text) { refused_.push_back(std::move(text)); }
  int applies() const { return applies_; }

 private:
  std::map<std::string, ClusterState> clusters_;
  ActivePolicyText active_policy_;
  std::vector<std::string> refused_;
  int fail_applies_ = 0;
  int applies_ = 0;
};

}  // namespace fleetcap::store
