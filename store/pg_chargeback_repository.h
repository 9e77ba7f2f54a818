#pragma once
// The chargeback repositories on PostgreSQL (migrations 0011, 0014, 0015, 0017, 0031, 0041).
//
// A replacement deletes the cluster's lines and over-held spans of the
// hours, COPYs the new lines in, and rebuilds from them the team rows of
// those hours (chargeback_hourly_by_team) and the daily rows of the days
// they touch, the team rows of those days (chargeback_daily_by_team) from
// the hourly team rows, the monthly rows of their months from
// chargeback_daily, the model rows of the hours
// (chargeback_hourly_by_model) from the hourly team rows and the team rows
// of the months (chargeback_monthly_by_team) from the daily team rows, and
// replaces the devices held in those hours and the days they touch
// (pg_chargeback_devices.h), in one transaction serialised per cluster by
// a transaction-scoped advisory lock. Sums are taken in bigint by
// fleetcap_sum_int64 (migration 0017), which refuses to overflow: a rollup or
// a read whose sum would be past int64 is OUT_OF_RANGE, never wrapped.

#include "common/pg_pool.h"
#include "store/chargeback_repository.h"

namespace fleetcap::store {

class PgChargebackRepository : public ChargebackWriteRepository, public ChargebackReadRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgChargebackRepository(PgPool* pool) : pool_(pool) {}

  using ChargebackWriteRepository::ReplaceHours;
  absl::Status ReplaceHours(const std::string& cluster, absl::Time start, absl::Time end,
                            const ChargebackHours& hours) override;
  absl::StatusOr<std::optional<absl::Time>> Watermark(const std::string& cluster) override;
  absl::Status AdvanceWatermark(const std::string& cluster, absl::Time through) override;
  absl::Status MarkForRecompute(const std::string& cluster, const std::vector<absl::Time>& hours,
                                const std::string& reason) override;
  absl::StatusOr<std::vector<RecomputeMark>> LeaseRecompute(const std::string& cluster, int limit,
                                                            const std::string& holder, absl::Time now,
                                                            absl::Duration lease) override;
  absl::Status CompleteRecompute(const std::string& cluster, const std::vector<RecomputeMark>& marks) override;
  absl::Status ReleaseRecompute(const std::string& cluster, const std::vector<RecomputeMark>& marks) override;

  absl::StatusOr<std::vector<ChargebackSum>> Lines(const ChargebackFilter& filter, const ChargebackGroupBy& group_by,
                                                   ChargebackResolution resolution) const override;
  absl::StatusOr<int64_t> RowsRead(const ChargebackFilter& filter, const ChargebackGroupBy& group_by,
                                   ChargebackResolution resolution) const override;
  absl::StatusOr<DeviceUse> DevicesHeld(const DeviceUseFilter& filter) const override;
  absl::StatusOr<std::vector<OverHeldRecord>> OverHeld(const std::string& cluster, absl::Time start,
                                                       absl::Time end) const override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store
