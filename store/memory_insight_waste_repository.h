#pragma once
// InsightWasteRepository in memory, for unit tests: the same contract as
// PgInsightWasteRepository (store/insight_waste_contract.h), behind one mutex.
// Marks come only from MarkHours here (no chargeback beside it).

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "store/insight_waste_repository.h"

namespace fleetcap::store {

class MemoryInsightWasteRepository : public InsightWasteRepository {
 public:
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
  class Replacement;
  // The hours [start, end) of `cluster` become these rows.
  void Replace(const std::string& cluster, absl::Time start, absl::Time end, const std::vector<IdlePieceRecord>& pieces,
               const std::vector<WorkloadHourRecord>& hours);

  mutable std::mutex mu_;
  std::vector<IdlePieceRecord> pieces_;
  std::vector<WorkloadHourRecord> hours_;
  std::map<std::string, absl::Time> watermarks_;
  std::map<std::pair<std::string, absl::Time>, absl::Time> marks_;  // (cluster, hour) -> noted_at
};

}  // namespace fleetcap::store
