#include "store/inventory_validation.h"

#include <gtest/gtest.h>

#include "store/test_inventory.h"

namespace fleetcap::store {
namespace {

void ExpectInvalid(const ClusterInventory& inv, absl::string_view names) {
  absl::Status status = ValidateInventory(inv);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << names;
  EXPECT_NE(status.message().find(names), std::string_view::npos) << status.message();
}

TEST(ValidateInventory, AcceptsAConsistentInventory) {
  EXPECT_TRUE(ValidateInventory(TestInventory()).ok());
}

TEST(ValidateInventory, NamesTheRecordAndField) {
  auto inv = TestInventory();
  inv.holds[1].milli = 1200;
  ExpectInvalid(inv, "holds[1].milli: 1200 is outside 1..1000");

  inv = TestInventory();
  inv.holds[0].device_id = "ghost";
  ExpectInvalid(inv, "holds[0].device_id: \"ghost\"");

  inv = TestInventory();
  inv.holds[2].pod_uid = "nobody";
  ExpectInvalid(inv, "holds[2].pod_uid: \"nobody\"");

  inv = TestInventory();
  inv.devices[0].model = "H200";
  ExpectInvalid(inv, "devices[0].model: \"H200\"");

  inv = TestInventory();
  inv.types[0].vendor = "intel";
  ExpectInvalid(inv, "types[0].vendor");

  inv = TestInventory();
  inv.pods.push_back(inv.pods[0]);
  ExpectInvalid(inv, "pods[3].uid: \"whole\" appears twice");

  inv = TestInventory();
  inv.holds[0].to = inv.holds[0].from - absl::Seconds(1);
  ExpectInvalid(inv, "holds[0].to: before from");

  inv = TestInventory();
  inv.cluster.clear();
  ExpectInvalid(inv, "cluster: empty");
}

}  // namespace
}  // namespace fleetcap::store
