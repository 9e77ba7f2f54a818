#pragma once
// The usage repositories in memory, for unit tests: the same contract as
// PgUsageRepository (store/usage_contract.h), behind one mutex, plus a way
// to read everything back and to inject failures. Like usage_minute's CHECK,
// it refuses a row with fewer than one sample.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "store/memory_live_inventory_repository.h"
#include "store/usage_repository.h"

namespace fleetcap::store {

class MemoryUsageRepository : public UsageWriteRepository, public UsageReadRepository {
 public:
  // Series join the pods and devices of `inventory` when given (it must
  // outlive this repository), as the PostgreSQL one joins its tables.
  explicit MemoryUsageRepository(UsageStoreOptions options = {},
                                 const MemoryLiveInventoryRepository* inventory = nullptr)
      : options_(options), inventory_(inventory) {}

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

  // Every row stored for `cluster`, ordered by (device, pod_uid, minute).
  std::vector<UsageMinuteRow> Rows(const std::string& cluster) const;
  // Everything set aside, oldest first.
  std::vector<QuarantineRecord> Quarantine() const;
  // The next `n` writes (of rows, progress or watermarks) fail with
  // UNAVAILABLE and change nothing.
  void FailNextWrites(int n);
  // Writes that succeeded.
  int writes() const;

 private:
  using RowKey = std::tuple<std::string, std::string, int64_t>;                      // device, pod_uid, minute
  using SeriesKey = std::tuple<std::string, std::string, std::string, std::string>;  // device, ns, pod, field
  struct ClusterState {
    std::map<RowKey, UsageMinuteRow> rows;
    std::map<SeriesKey, SeriesIdentity> series;
    std::map<std::string, int64_t> closed_through;  // by device
    std::map<SeriesKey, CarriedCounter> counters;
    std::optional<int64_t> checkpoint;
    std::string log_id;
    std::map<std::string, absl::Time> watermarks;
  };

  SeriesIdentity Join(const std::string& cluster, const SeriesName& s) const;
  // These three require mu_.
  absl::Status FailIfInjected();
  MinuteWriteResult Store(const std::string& cluster, std::vector<UsageMinuteRow> rows, const std::string& source);
  std::vector<UsageMinuteRow> Selected(const UsageFilter& filter) const;

  const UsageStoreOptions options_;
  const MemoryLiveInventoryRepository* const inventory_;
  mutable std::mutex mu_;
  std::map<std::string, ClusterState> clusters_;
  std::vector<QuarantineRecord> quarantine_;
  int fail_writes_ = 0;
  int writes_ = 0;
};

}  // namespace fleetcap::store
