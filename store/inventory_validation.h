#pragma once
// Checks a ClusterInventory before it is stored, so that bad input is refused
// with an error naming the record and field instead of surfacing as a
// constraint violation (or, in the fake, not at all).

#include "absl/status/status.h"
#include "store/inventory.h"

namespace fleetcap::store {

// INVALID_ARGUMENT naming e.g. `holds[3].milli` when a record is malformed or
// refers to a device, pod or accelerator type the inventory does not contain.
absl::Status ValidateInventory(const ClusterInventory& inventory);

}  // namespace fleetcap::store
