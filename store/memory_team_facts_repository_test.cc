#include "store/memory_team_facts_repository.h"

#include "store/team_facts_contract.h"

namespace fleetcap::store {
namespace {

class MemoryTeamFactsTest : public ::testing::Test {
 public:
  TeamFactsRepository& repo() { return repo_; }
  void AddPod(MemoryTeamFactsRepository::Pod pod) { repo_.AddPod(std::move(pod)); }
  void AddHold(MemoryTeamFactsRepository::Hold hold) { repo_.AddHold(std::move(hold)); }
  void AddNamespace(const std::string& cluster, NamespaceLabels ns) { repo_.AddNamespace(cluster, std::move(ns)); }
  int32_t Apply(std::string document, absl::Time applied_at) { return repo_.Apply(std::move(document), applied_at); }

 private:
  MemoryTeamFactsRepository repo_;
};

FLEETCAP_TEAM_FACTS_CONTRACT_TESTS(MemoryTeamFactsTest)

}  // namespace
}  // namespace fleetcap::store
