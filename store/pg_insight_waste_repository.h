#pragma once
// InsightWasteRepository on PostgreSQL (insight_waste_runs,
// insight_workload_hours, insight_waste_watermarks and
// insight_waste_recompute, migration 0039). The hours of a cluster are
// replaced in one transaction under the cluster's advisory lock, held from
// BeginReplaceHours to the commit, each part's rows written with COPY; a
// window's workload hours are summed in the database.

#include "common/pg_pool.h"
#include "store/insight_waste_repository.h"

namespace fleetcap::store {

class PgInsightWasteRepository : public InsightWasteRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgInsightWasteRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<std::unique_ptr<WasteHoursReplacement>> BeginReplaceHours(const std::string& cluster, absl::Time start,
                                                                           absl::Time end) override;
  absl::StatusOr<std::optional<absl::Time>> Watermark(const std::string& cluster) override;
  absl::Status AdvanceWatermark(const std::string& cluster, absl::Time through) override;
  absl::Status MarkHours(const std::string& cluster, const std::vector<absl::Time>& hours,
                         absl::Time noted_at) override;
  absl::StatusOr<std::vector<WasteMark>> Marks(const std::string& cluster, absl::Time before, int limit) override;
  absl::Status ClearMarks(const std::string& cluster, const std::vector<WasteMark>& marks) override;
  absl::StatusOr<std::vector<IdlePieceRecord>> Pieces(const WasteFilter& filter) const override;
  absl::StatusOr<std::vector<WorkloadHourRecord>> WorkloadSums(const WasteFilter& filter) const override;
  absl::StatusOr<std::vector<WorkloadWasteRecord>> WasteSums(const WasteFilter& filter) const override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store
