#pragma once
// The usage repositories on PostgreSQL.
//
// Minute rows go into usage_minute by COPY (an INSERT .. ON CONFLICT upsert
// only when some row is already there, as after a lost sample log or when
// the pull path fetches minutes inside its settle window again), in one
// transaction with the quarantine of the rows set aside and, for the
// remote_write path, with its progress. When the store refuses a batch for
// its data (SQLSTATE classes 22 and 23) the rows are written one by one and
// those it refuses are set aside. A partition that retention dropped after
// this repository saw it is created again. Batches of one cluster are
// serialised by a transaction-scoped advisory lock.
//
// Series join the inventory (pods, devices) once, when first seen
// (telemetry_series).

#include <mutex>
#include <set>

#include "common/pg_pool.h"
#include "store/usage_repository.h"

namespace fleetcap::store {

class PgUsageRepository : public UsageWriteRepository, public UsageReadRepository {
 public:
  // `pool` (and the clock) must outlive the repository. Thread-safe: each
  // call leases its own connection.
  explicit PgUsageRepository(PgPool* pool, UsageStoreOptions options = {}) : pool_(pool), options_(options) {}

  absl::StatusOr<std::vector<SeriesIdentity>> IdentifySeries(const std::string& cluster,
                                                             const std::vector<SeriesName>& series) override;
  absl::StatusOr<MinuteWriteResult> WriteMinutes(const std::string& cluster, const std::vector<UsageMinuteRow>& rows,
                                                 const std::string& source) override;
  absl::StatusOr<MinuteWriteResult> WriteClosedMinutes(const std::string& cluster,
                                                       const std::vector<UsageMinuteRow>& rows,
                                                       const PushProgress& progress) override;
  absl::StatusOr<PushState> LoadPushState(const std::string& cluster) override;
  absl::StatusOr<std::map<std::string, absl::Time>> Watermarks(const std::string& cluster) override;
  absl::Status AdvanceWatermarks(const std::string& cluster, const std::vector<std::string>& metrics,
                                 absl::Time through) override;

  absl::StatusOr<std::vector<UsageBucket>> Buckets(const UsageFilter& filter, BucketWidth width) const override;
  absl::StatusOr<std::vector<UsageMinuteRow>> Minutes(const UsageFilter& filter) const override;
  absl::StatusOr<std::vector<UsageMinuteRow>> PodMinutes(const PodSeriesFilter& filter) const override;

 private:
  absl::StatusOr<MinuteWriteResult> Write(const std::string& cluster, std::vector<UsageMinuteRow> rows,
                                          const std::string& source, const PushProgress* progress);
  absl::Status EnsurePartitions(pqxx::connection& conn, const std::vector<UsageMinuteRow>& rows);

  PgPool* pool_;
  UsageStoreOptions options_;
  std::mutex mu_;
  std::set<int64_t> days_with_partition_;  // guarded by mu_; day numbers since the epoch
};

}  // namespace fleetcap::store
