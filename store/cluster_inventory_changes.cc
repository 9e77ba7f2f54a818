#include "store/cluster_inventory_changes.h"

namespace fleetcap::store {

InventoryChanges ChangesOf(const ClusterInventory& inventory) {
  InventoryChanges changes;
  changes.cluster = inventory.cluster;
  changes.types = inventory.types;
  for (const Node& node : inventory.nodes) changes.nodes.push_back({node, ""});
  changes.devices = inventory.devices;
  for (const Pod& pod : inventory.pods) changes.pods.push_back({pod, ""});
  changes.holds = inventory.holds;
  return changes;
}

}  // namespace fleetcap::store
