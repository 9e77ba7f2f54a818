#pragma once
// The inventory the Assets tests read beside tests/support/served_chargeback.h's
// bill: devices, pods and holds in clusters c1 and c2 (A100, H100 and T4)
// whose intervals and holds start and end inside hours and outside the
// bill's window, a device that went and came back, one still in service, a
// hold still open and a device held by two pods at once. The API's and the
// CLI's Assets tests work out what to expect from what is stored.

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tests/support/served_chargeback.h"

namespace fleetcap::testing {

// Writes the inventory through store::PgLiveInventoryRepository into the database at `db_uri`.
absl::Status StoreAssetInventory(const std::string& db_uri);

// ServeChargeback (served_chargeback.h) with this inventory stored beside the bill.
absl::StatusOr<std::unique_ptr<ServedChargeback>> ServeAssets(const std::string& api_bin);

}  // namespace fleetcap::testing
