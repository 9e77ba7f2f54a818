#include "store/inventory_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/test_inventory.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

void ExpectInvalid(const ClusterInventory& inv, absl::string_view names) {
  EXPECT_THAT(ValidateInventory(inv), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(std::string(names))));
}

TEST(ValidateInventory, AcceptsAConsistentInventory) { EXPECT_THAT(ValidateInventory(TestInventory()), IsOk()); }

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
