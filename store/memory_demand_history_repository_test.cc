#include "store/memory_demand_history_repository.h"

#include "store/demand_history_contract.h"

namespace fleetcap::store {
namespace {

class MemoryDemandHistoryTest : public ::testing::Test {
 public:
  DemandHistoryRepository& repo() { return repo_; }
  void AddHeld(HeldHourRecord record) { repo_.AddHeld(std::move(record)); }
  void AddPending(PendingPodRecord pod, std::optional<absl::Time> pending_to, std::optional<absl::Time> deleted_at) {
    repo_.AddPending(std::move(pod), pending_to, deleted_at);
  }

 private:
  MemoryDemandHistoryRepository repo_;
};

FLEETCAP_DEMAND_HISTORY_CONTRACT_TESTS(MemoryDemandHistoryTest)

}  // namespace
}  // namespace fleetcap::store
