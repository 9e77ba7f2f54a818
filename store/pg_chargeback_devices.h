#pragma once
// The devices held, hour by hour and rolled up by day (migration 0041), as
// PgChargebackRepository writes them inside its replacement's transaction
// and reads them for DevicesHeld.

#include <vector>

#include "absl/status/statusor.h"
#include "pqxx/pqxx"
#include "store/chargeback_repository.h"

namespace fleetcap::store::pg_chargeback_devices {

// Replaces the devices of `cluster` in the hours [start, end) with `devices`,
// rebuilds the days they touch from the hours, and takes those hours off
// the list of hours computed before devices were kept.
void Replace(pqxx::transaction_base& txn, const std::string& cluster, absl::Time start, absl::Time end,
             const std::vector<DeviceHourRecord>& devices);

// The sums `filter` (checked) asks for: the whole UTC days of its window
// from the daily rows, its ragged hours from the hourly ones; and the
// clusters with an hour of the window computed before devices were kept.
// OUT_OF_RANGE for a sum past int64.
absl::StatusOr<DeviceUse> Read(pqxx::transaction_base& txn, const DeviceUseFilter& filter);

}  // namespace fleetcap::store::pg_chargeback_devices
