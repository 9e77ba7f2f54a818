// MemoryInsightWasteRepository keeps the contract the PostgreSQL form keeps
// (tests/store/pg_insight_waste_repository_test.cc).

#include <gtest/gtest.h>

#include "store/insight_waste_contract.h"
#include "store/memory_insight_waste_repository.h"

namespace fleetcap::store {
namespace {

class MemoryInsightWasteTest : public ::testing::Test {
 protected:
  InsightWasteRepository& repo() { return repo_; }

  MemoryInsightWasteRepository repo_;
};

FLEETCAP_INSIGHT_WASTE_CONTRACT_TESTS(MemoryInsightWasteTest)

}  // namespace
}  // namespace fleetcap::store
