// A recorded history is checked as every batch of changes is, naming the
// record and field at fault.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/cluster_inventory_changes.h"
#include "store/test_inventory.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

void ExpectInvalid(const ClusterInventory& inventory, absl::string_view names) {
  EXPECT_THAT(ValidateChanges(ChangesOf(inventory)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(std::string(names))));
}

TEST(ValidateRecordedHistory, AcceptsAConsistentInventory) {
  EXPECT_THAT(ValidateChanges(ChangesOf(TestInventory())), IsOk());
}

TEST(ValidateRecordedHistory, NamesTheRecordAndField) {
  auto inventory = TestInventory();
  inventory.holds[1].milli = 1200;
  ExpectInvalid(inventory, "holds[1].milli: 1200 is outside 1..1000");

  inventory = TestInventory();
  inventory.types[0].vendor = "intel";
  ExpectInvalid(inventory, "types[0].vendor");

  inventory = TestInventory();
  inventory.holds[0].to = inventory.holds[0].from - absl::Seconds(1);
  ExpectInvalid(inventory, "holds[0].to: ends before it starts");

  inventory = TestInventory();
  inventory.devices[2].in_service_to = inventory.devices[2].in_service_from - absl::Seconds(1);
  ExpectInvalid(inventory, "devices[2].to: ends before it starts");

  inventory = TestInventory();
  inventory.pods[1].uid.clear();
  ExpectInvalid(inventory, "pods[1].uid: empty");

  inventory = TestInventory();
  inventory.cluster.clear();
  ExpectInvalid(inventory, "cluster: empty");
}

}  // namespace
}  // namespace fleetcap::store
