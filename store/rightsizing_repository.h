#pragma once
// Rightsizing recommendations (migration 0040, docs/insights.md,
// "Rightsizing"): per cluster, the latest the optimizer computed, with the
// lookback they stand on. Storing a cluster's run replaces its previous one
// and every recommendation of it, all at once.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// One recommendation, as optimizer/insights/rightsizing.h makes it.
struct RightsizingRecord {
  std::string namespace_name, workload, model;
  std::string kind;  // "fewer_devices", "smaller_slice" or "cheaper_flavor"
  std::string team;
  std::string current, proposed;
  int64_t current_milli = 0;
  int64_t proposed_milli = 0;
  int64_t savings_micro_per_month = 0;  // > 0
  std::string evidence;
  int64_t observed_minutes = 0;  // > 0
  std::string confidence;        // "high", "medium" or "low"
  double p95_active_devices = 0;
  double p95_activity = 0;
  int64_t p99_memory_bytes = 0;

  bool operator==(const RightsizingRecord& o) const;
};

// A cluster's recommendations and what they were computed over.
struct RightsizingRun {
  std::string cluster;
  absl::Time lookback_start, lookback_end;
  absl::Time computed_at;
  std::string currency;
  std::vector<RightsizingRecord> recommendations;

  bool operator==(const RightsizingRun& o) const;
};

// Which recommendations to read: empty selects every value; `teams` (when
// set) the recommendations of those teams only.
struct RightsizingFilter {
  std::string cluster;
  std::string namespace_name;
  std::optional<std::set<std::string>> teams;
};

class RightsizingRepository {
 public:
  virtual ~RightsizingRepository() = default;

  // Stores `run` as its cluster's latest, replacing the one before.
  // INVALID_ARGUMENT naming the field for a bad run (ValidateRightsizingRun).
  virtual absl::Status Replace(const RightsizingRun& run) = 0;
  // Each selected cluster's latest run (by cluster, bytewise) with the
  // recommendations `filter` selects, the largest saving first (then by
  // namespace, workload, model, kind); a run none of whose recommendations
  // is selected comes with none.
  virtual absl::StatusOr<std::vector<RightsizingRun>> Latest(const RightsizingFilter& filter) const = 0;
};

// INVALID_ARGUMENT naming the field; what every implementation checks before storing.
absl::Status ValidateRightsizingRun(const RightsizingRun& run);
// `t` to the microsecond, as stored.
inline absl::Time RightsizingTime(absl::Time t) { return absl::FromUnixMicros(absl::ToUnixMicros(t)); }
// Whether `r` of `cluster` is one `filter` selects.
bool Selects(const RightsizingFilter& filter, const std::string& cluster, const RightsizingRecord& r);
// The order Latest gives a run's recommendations in.
bool LargestSavingFirst(const RightsizingRecord& a, const RightsizingRecord& b);

}  // namespace fleetcap::store
