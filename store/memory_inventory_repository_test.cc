#include "store/memory_inventory_repository.h"

#include <gtest/gtest.h>

#include "store/test_inventory.h"

namespace fleetcap::store {
namespace {

TEST(MemoryInventoryRepository, SummarizesWhatWasInServiceAndHeldAtAnInstant) {
  MemoryInventoryRepository repo;
  ASSERT_TRUE(repo.ReplaceClusterInventory(TestInventory()).ok());
  const absl::Time t0 = TestT0();
  const absl::Duration h = absl::Hours(1);

  auto at_start = repo.SummarizeAt("c1", t0);
  ASSERT_TRUE(at_start.ok()) << at_start.status();
  EXPECT_EQ(*at_start, (std::vector<ModelCount>{{"T4", 2, 1000}}));

  auto at_90min = repo.SummarizeAt("c1", t0 + 1.5 * h);
  ASSERT_TRUE(at_90min.ok());
  EXPECT_EQ(*at_90min, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 1250}}));

  // Half-open intervals: at T0+2h the whole-GPU hold has ended; at T0+3h the A100 left service.
  auto at_2h = repo.SummarizeAt("", t0 + 2 * h);
  ASSERT_TRUE(at_2h.ok());
  EXPECT_EQ(*at_2h, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 250}}));
  auto at_3h = repo.SummarizeAt("", t0 + 3 * h);
  ASSERT_TRUE(at_3h.ok());
  EXPECT_EQ(*at_3h, (std::vector<ModelCount>{{"T4", 2, 250}}));
}

TEST(MemoryInventoryRepository, UnknownClusterIsNotFound) {
  MemoryInventoryRepository repo;
  EXPECT_EQ(repo.SummarizeAt("nope", TestT0()).status().code(), absl::StatusCode::kNotFound);
}

TEST(MemoryInventoryRepository, ReplaceSwapsTheWholeCluster) {
  MemoryInventoryRepository repo;
  ASSERT_TRUE(repo.ReplaceClusterInventory(TestInventory()).ok());
  ClusterInventory smaller = TestInventory();
  smaller.holds.clear();
  ASSERT_TRUE(repo.ReplaceClusterInventory(smaller).ok());
  auto summary = repo.SummarizeAt("c1", TestT0());
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(*summary, (std::vector<ModelCount>{{"T4", 2, 0}}));
}

}  // namespace
}  // namespace fleetcap::store
