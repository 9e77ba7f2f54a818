#include "store/memory_inventory_repository.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/test_inventory.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;

TEST(MemoryInventoryRepository, SummarizesWhatWasInServiceAndHeldAtAnInstant) {
  MemoryInventoryRepository repo;
  ASSERT_THAT(repo.ReplaceClusterInventory(TestInventory()), IsOk());
  const absl::Time t0 = TestT0();
  const absl::Duration h = absl::Hours(1);

  auto at_start = repo.SummarizeAt("c1", t0);
  ASSERT_THAT(at_start, IsOk());
  EXPECT_EQ(*at_start, (std::vector<ModelCount>{{"T4", 2, 1000}}));

  auto at_90min = repo.SummarizeAt("c1", t0 + 1.5 * h);
  ASSERT_THAT(at_90min, IsOk());
  EXPECT_EQ(*at_90min, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 1250}}));

  // Half-open intervals: at T0+2h the whole-GPU hold has ended; at T0+3h the A100 left service.
  auto at_2h = repo.SummarizeAt("", t0 + 2 * h);
  ASSERT_THAT(at_2h, IsOk());
  EXPECT_EQ(*at_2h, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 250}}));
  auto at_3h = repo.SummarizeAt("", t0 + 3 * h);
  ASSERT_THAT(at_3h, IsOk());
  EXPECT_EQ(*at_3h, (std::vector<ModelCount>{{"T4", 2, 250}}));
}

TEST(MemoryInventoryRepository, UnknownClusterIsNotFound) {
  MemoryInventoryRepository repo;
  EXPECT_THAT(repo.SummarizeAt("nope", TestT0()), StatusIs(absl::StatusCode::kNotFound));
}

TEST(MemoryInventoryRepository, ReplaceSwapsTheWholeCluster) {
  MemoryInventoryRepository repo;
  ASSERT_THAT(repo.ReplaceClusterInventory(TestInventory()), IsOk());
  ClusterInventory smaller = TestInventory();
  smaller.holds.clear();
  ASSERT_THAT(repo.ReplaceClusterInventory(smaller), IsOk());
  auto summary = repo.SummarizeAt("c1", TestT0());
  ASSERT_THAT(summary, IsOk());
  EXPECT_EQ(*summary, (std::vector<ModelCount>{{"T4", 2, 0}}));
}

}  // namespace
}  // namespace fleetcap::store
