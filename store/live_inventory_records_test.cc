#include "store/live_inventory_records.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/live_inventory_contract.h"
#include "store/memory_live_inventory_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store {
namespace {

using contract::T;
using ::fleetcap::testing::IsOk;

// Opens, changes and closes in one batch, as a reconciler accumulates them.
InventoryChanges Busy() {
  InventoryChanges c = contract::FirstSight();
  c.holds.push_back({"uid-a", "n1/gpu0", 1000, T(3), T(9)});  // the same hold, closed later in the batch
  c.demands = {{"uid-b", "nvidia.com/gpu", "H100", 1000, T(1), std::nullopt}};
  c.close_demands = {{"uid-b", "", T(1), T(4)}};
  c.close_holds = {{"uid-a", "n1/gpu1", T(3), T(8)}};
  c.close_devices = {{"n1/gpu1", "", T(0), T(8)}};
  c.close_nodes = {{"n1", "", T(0), T(12)}};
  return c;
}

TEST(LiveInventoryRecords, RangesWrittenInOrderStoreWhatTheWholeBatchStores) {
  const InventoryChanges busy = Busy();
  MemoryLiveInventoryRepository whole, one_by_one, halves;
  ASSERT_THAT(whole.Apply(busy), IsOk());
  const size_t n = RecordCount(busy);
  EXPECT_EQ(n, busy.size());
  for (size_t i = 0; i < n; ++i) ASSERT_THAT(one_by_one.Apply(RecordRange(busy, i, i + 1)), IsOk()) << i;
  ASSERT_THAT(halves.Apply(RecordRange(busy, 0, n / 2)), IsOk());
  ASSERT_THAT(halves.Apply(RecordRange(busy, n / 2, n)), IsOk());
  for (const auto* repo : {&one_by_one, &halves}) {
    const auto& want = *whole.State("live");
    const auto& got = *repo->State("live");
    ASSERT_EQ(got.holds.size(), want.holds.size());
    for (const auto& [key, h] : want.holds) EXPECT_EQ(got.holds.at(key).to, h.to);
    for (const auto& [key, d] : want.devices) EXPECT_EQ(got.devices.at(key).in_service_to, d.in_service_to);
    for (const auto& [key, nd] : want.nodes) EXPECT_EQ(got.nodes.at(key).node.in_service_to, nd.node.in_service_to);
    for (const auto& [key, d] : want.demands) EXPECT_EQ(got.demands.at(key).to, d.to);
    EXPECT_EQ(got.pods.size(), want.pods.size());
  }
}

TEST(LiveInventoryRecords, RangesAppendedBackMakeTheBatch) {
  const InventoryChanges busy = Busy();
  const size_t n = RecordCount(busy);
  InventoryChanges again;
  again.cluster = busy.cluster;
  for (size_t i = 0; i < n; i += 3) AppendChanges(again, RecordRange(busy, i, std::min(n, i + 3)));
  ASSERT_EQ(RecordCount(again), n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(RecordText(again, i), RecordText(busy, i));
}

TEST(LiveInventoryRecords, EachRecordIsNamedAndCheckedAlone) {
  InventoryChanges c = Busy();
  c.holds[1].milli = 0;
  c.pods[0].pod.phase = std::string("Run\0ning", 8);
  EXPECT_EQ(RecordKey(c, 0), "accelerator type H100");
  EXPECT_EQ(RecordKey(c, 4), "Pod ml/train-0 uid=uid-a");
  EXPECT_EQ(RecordKey(c, 6), "hold pod=uid-a device=n1/gpu1 from=2026-01-01T00:03:00Z");
  EXPECT_EQ(ValidateRecord(c, 4).message(), "pods[0].phase: holds a NUL byte");
  EXPECT_EQ(ValidateRecord(c, 6).message(), "holds[0].milli: 0 is outside 1..1000");
  EXPECT_THAT(ValidateRecord(c, 5), IsOk());
  EXPECT_EQ(RecordKey(c, RecordCount(c) - 1), "close demand uid-b from=2026-01-01T00:01:00Z to=2026-01-01T00:04:00Z");
}

TEST(LiveInventoryRecords, TheFakeStoresQuarantineRecordsAndRefusesWhatItIsToldTo) {
  MemoryLiveInventoryRepository repo;
  repo.RefuseRecordsMentioning("uid-a");
  EXPECT_EQ(repo.Apply(contract::FirstSight()).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(repo.State("live"), nullptr);
  InventoryChanges aside;
  aside.cluster = "live";
  aside.quarantine = {{0, "k8s", "live", "Pod ml/x uid=x", "refused", std::string("a\0b", 3), T(0)}};
  ASSERT_THAT(repo.Apply(aside), IsOk());
  ASSERT_EQ(repo.State("live")->quarantine.size(), 1u);
  EXPECT_EQ(repo.State("live")->quarantine[0].payload, "a\\x00b");
  aside.quarantine[0].reason.clear();
  EXPECT_EQ(repo.Apply(aside).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::store
