#include "store/memory_quarantine_repository.h"

#include "store/quarantine_contract.h"

namespace fleetcap::store {
namespace {

class MemoryQuarantineTest : public ::testing::Test {
 protected:
  QuarantineRepository& repo() { return repo_; }

  MemoryQuarantineRepository repo_;
};

FLEETCAP_QUARANTINE_CONTRACT_TESTS(MemoryQuarantineTest)

}  // namespace
}  // namespace fleetcap::store
