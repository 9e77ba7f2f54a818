#pragma once
// The chargeback repositories in memory, for unit tests: the same contract
// as PgChargebackRepository (store/chargeback_contract.h), behind one mutex.
// Rollups are summed from the hours when read; a replacement whose monthly
// sums would pass int64 is refused, as the PostgreSQL rollups refuse it.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "store/chargeback_repository.h"

namespace fleetcap::store {

class MemoryChargebackRepository : public ChargebackWriteRepository, public ChargebackReadRepository {
 public:
  // `clock` (nullptr: the real one) stamps recompute marks; it must outlive this.
  explicit MemoryChargebackRepository(const Clock* clock = RealClock::Instance()) : clock_(clock) {}

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
  // Every cluster is kept over every window: this store has no history from
  // before devices were kept.
  absl::StatusOr<DeviceUse> DevicesHeld(const DeviceUseFilter& filter) const override;
  absl::StatusOr<std::vector<OverHeldRecord>> OverHeld(const std::string& cluster, absl::Time start,
                                                       absl::Time end) const override;

 private:
  // (hour, team, namespace, workload, model, line_kind)
  using LineKey = std::tuple<absl::Time, std::string, std::string, std::string, std::string, std::string>;
  // A stored mark (its generation and lease counts in `mark`) and its lease.
  struct StoredMark {
    RecomputeMark mark;
    std::string taken_by;
    std::optional<absl::Time> taken_until;
  };
  struct ClusterState {
    std::map<LineKey, ChargebackLineRecord> lines;
    std::vector<OverHeldRecord> over_held;
    std::map<std::pair<absl::Time, std::string>, DeviceHourRecord> devices;  // by (hour, device)
    std::optional<absl::Time> watermark;
    std::map<absl::Time, StoredMark> recompute;
  };

  const Clock* const clock_;
  mutable std::mutex mu_;
  std::map<std::string, ClusterState> clusters_;
};

}  // namespace fleetcap::store
