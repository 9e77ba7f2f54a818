#include "store/memory_optimizer_state_repository.h"

#include "store/optimizer_state_contract.h"

namespace fleetcap::store {
namespace {

class MemoryOptimizerStateTest : public ::testing::Test {
 protected:
  OptimizerStateRepository& repo() { return repo_; }

  MemoryOptimizerStateRepository repo_;
};

FLEETCAP_OPTIMIZER_STATE_CONTRACT_TESTS(MemoryOptimizerStateTest)

}  // namespace
}  // namespace fleetcap::store
