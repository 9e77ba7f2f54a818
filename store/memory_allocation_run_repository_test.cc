// MemoryAllocationRunRepository keeps the contract the PostgreSQL form keeps
// (tests/store/pg_allocation_run_repository_test.cc).

#include <gtest/gtest.h>

#include "store/allocation_run_contract.h"
#include "store/memory_allocation_run_repository.h"

namespace fleetcap::store {
namespace {

class MemoryAllocationRunTest : public ::testing::Test {
 protected:
  AllocationRunRepository& repo() { return repo_; }

  MemoryAllocationRunRepository repo_;
};

FLEETCAP_ALLOCATION_RUN_CONTRACT_TESTS(MemoryAllocationRunTest)

}  // namespace
}  // namespace fleetcap::store
