#include "store/memory_usage_repository.h"

#include <gtest/gtest.h>

#include "store/usage_contract.h"

namespace fleetcap::store {
namespace {

class MemoryUsageTest : public ::testing::Test {
 protected:
  UsageWriteRepository& writer() { return repo_; }
  UsageReadRepository& reader() { return repo_; }
  LiveInventoryRepository& inventory() { return inventory_; }

  MemoryLiveInventoryRepository inventory_;
  MemoryUsageRepository repo_{usage_contract::AtT0(), &inventory_};
};

FLEETCAP_USAGE_CONTRACT_TESTS(MemoryUsageTest)

TEST_F(MemoryUsageTest, InjectedFailuresChangeNothing) {
  repo_.FailNextWrites(2);
  EXPECT_EQ(repo_.WriteMinutes("c1", {usage_contract::Row("GPU-0", usage_contract::kT0, 0.5)}, "pull").status().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(repo_.AdvanceWatermarks("c1", {"m"}, absl::FromUnixMillis(usage_contract::kT0)).code(),
            absl::StatusCode::kUnavailable);
  EXPECT_TRUE(repo_.Rows("c1").empty());
  EXPECT_TRUE(repo_.Watermarks("c1")->empty());
  EXPECT_TRUE(repo_.WriteMinutes("c1", {usage_contract::Row("GPU-0", usage_contract::kT0, 0.5)}, "pull").ok());
  EXPECT_EQ(repo_.Rows("c1").size(), 1u);
  EXPECT_EQ(repo_.writes(), 1);
}

TEST_F(MemoryUsageTest, SetAsideRowsAreKeptInTheQuarantine) {
  auto written = repo_.WriteMinutes("c1", {usage_contract::Row("GPU-bad", usage_contract::kT0, 0.5, 0)}, "pull");
  ASSERT_TRUE(written.ok()) << written.status();
  ASSERT_EQ(repo_.Quarantine().size(), 1u);
  EXPECT_EQ(repo_.Quarantine()[0].object_key, written->set_aside[0].record.object_key);
}

}  // namespace
}  // namespace fleetcap::store
