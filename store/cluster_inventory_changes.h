#pragma once
// A recorded history of a cluster (a trace replayed, a test's inventory) as
// the changes that write it: every type, node, device, pod and hold opened
// (closed ones with their close), in one batch. Applying it twice stores it
// once, like every batch of changes.

#include "store/inventory.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::store {

InventoryChanges ChangesOf(const ClusterInventory& inventory);

}  // namespace fleetcap::store
