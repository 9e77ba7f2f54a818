#include "store/memory_pending_waits_repository.h"

#include "store/pending_waits_contract.h"

namespace fleetcap::store {
namespace {

class MemoryPendingWaitsTest : public ::testing::Test {
 protected:
  PendingWaitsRepository& repo() { return repo_; }
  void AddWait(const PendingWaitRecord& wait) { repo_.Add(wait); }

  MemoryPendingWaitsRepository repo_;
};

FLEETCAP_PENDING_WAITS_CONTRACT_TESTS(MemoryPendingWaitsTest)

}  // namespace
}  // namespace fleetcap::store
