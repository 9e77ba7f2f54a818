#pragma once
// The inventory the Assets tests read beside tests/support/served_chargeback.h's
// bill: devices, pods and holds in clusters c1 and c2 (A100, H100 and T4)
// whose intervals and holds start and end inside hours and outside the
// bill's window, a device that went and came back, one still in service, a
// hold still open and a device held by two pods at once; and what the holds
// on c1's A100 devices g0 (node n1) and g2 (n4) used each hour of the bill,
// beside its lines. The API's and the CLI's Assets tests work out what to
// expect from what is stored.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/chargeback_repository.h"
#include "tests/support/served_chargeback.h"

namespace fleetcap::testing {

// Writes the inventory through store::PgLiveInventoryRepository into the database at `db_uri`.
absl::Status StoreAssetInventory(const std::string& db_uri);

// What the holds on c1's A100 devices used each hour of the bill.
std::vector<store::DeviceHourRecord> AssetDevicesHeld();

// ServeChargeback (served_chargeback.h) with this inventory and c1's devices
// held stored beside the bill.
absl::StatusOr<std::unique_ptr<ServedChargeback>> ServeAssets(const std::string& api_bin);

}  // namespace fleetcap::testing
