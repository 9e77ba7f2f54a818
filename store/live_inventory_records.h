#pragma once
// The records of an InventoryChanges one at a time, so that one record the
// store cannot take costs only itself: a batch is checked record by record
// before it is written, and a batch the store refuses is split into parts
// until the records it refuses alone are found and set aside.
//
// Records are numbered in the order Apply writes them: types, namespaces, nodes,
// devices, pods, holds, demands, then the closes of nodes, devices, holds
// and demands. Applying consecutive ranges of that order one after another
// stores what applying the whole batch stores (every change is idempotent
// and opens come before closes), which is what makes splitting safe.
// Quarantine records are not numbered: they travel with a batch, not in it.

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::store {

// The records of `changes`, quarantine records excluded.
size_t RecordCount(const InventoryChanges& changes);

// Records [begin, end) of `changes`, with its cluster and no quarantine records.
InventoryChanges RecordRange(const InventoryChanges& changes, size_t begin, size_t end);

// Appends the records of `more` to `changes`, section by section (and its
// quarantine records); `more`'s records must come after those of `changes`.
void AppendChanges(InventoryChanges& changes, InventoryChanges more);

// The checks of ValidateChanges for record `i` alone.
absl::Status ValidateRecord(const InventoryChanges& changes, size_t i);

// Names record `i`, e.g. "hold pod=uid-a device=n1/gpu0 from=2026-01-01T00:03:00Z".
std::string RecordKey(const InventoryChanges& changes, size_t i);

// Record `i` with every field, as the quarantine keeps it.
std::string RecordText(const InventoryChanges& changes, size_t i);

}  // namespace fleetcap::store
