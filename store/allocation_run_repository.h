#pragma once
// Allocation runs (issue 13, "Output for schedulers"): each run the optimizer
// stores after attribution, with what it was computed from and its
// recommendations. The optimizer writes through AllocationRunRepository; the
// API reads the newest run and watches for newer ones through it. The
// records mirror optimizer/allocation/recommendation.h; the optimizer maps
// between them (store/ may not include optimizer/).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// What can bind a recommendation (the column's CHECK in migration 0018).
inline constexpr const char* kAllocationBoundBy[] = {"demand", "guarantee", "borrowing_limit", "lending_limit",
                                                     "fair_share"};

// The largest inputs_json a run may carry: it names versions, not data.
inline constexpr size_t kMaxAllocationInputsBytes = 64 * 1024;

// One team's recommendation for one flavor, in milli-devices.
struct AllocationRecommendationRecord {
  std::string team;
  std::string flavor;
  int64_t demand_milli = 0;
  int64_t guarantee_milli = 0;
  int64_t recommended_milli = 0;
  std::optional<int64_t> borrowing_limit_milli;  // none: unlimited
  int64_t lending_limit_milli = 0;
  std::string bound_by;     // one of kAllocationBoundBy
  std::string explanation;  // how the demand was measured and what bound the result
  // The measured demand before the policy's headroom (demand_milli is what
  // the engine was given); none: nothing measured.
  std::optional<int64_t> measured_demand_milli = std::nullopt;

  bool operator==(const AllocationRecommendationRecord& o) const;
};

// A run before it is stored: no id yet.
struct AllocationRunDraft {
  // Kept to the microsecond (PostgreSQL's precision), truncated; within the
  // years 1-9999, the range of the API's google.protobuf.Timestamp.
  absl::Time computed_at;
  int32_t policy_version = 0;
  // The versions of the inputs (e.g. the chargeback watermark per cluster, the
  // demand lookback), as a JSON object, so a run can be explained later. At
  // most kMaxAllocationInputsBytes; read back in canonical form
  // (CanonicalAllocationInputs: keys sorted, no spaces).
  std::string inputs_json = "{}";
  // In any order; read back ordered by team then flavor (bytes).
  std::vector<AllocationRecommendationRecord> recommendations;
};

struct AllocationRunRecord {
  int64_t run_id = 0;
  absl::Time computed_at;
  int32_t policy_version = 0;
  std::string inputs_json = "{}";
  std::vector<AllocationRecommendationRecord> recommendations;  // team, then flavor

  bool operator==(const AllocationRunRecord& o) const;
};

// What reading the stored runs needs: the API's queries and its watch hold
// only this.
class AllocationRunReadRepository {
 public:
  virtual ~AllocationRunReadRepository() = default;

  // The newest run's id; none before the first run. Cheap: the API's watch
  // polls it.
  virtual absl::StatusOr<std::optional<int64_t>> LatestRunId() = 0;

  // The newest run with its recommendations; none before the first run.
  virtual absl::StatusOr<std::optional<AllocationRunRecord>> LatestRun() = 0;
  // The newest run stored before run `run_id` (the largest id below it);
  // none when there is no such run. What "the change since the previous
  // run" compares with.
  virtual absl::StatusOr<std::optional<AllocationRunRecord>> RunBefore(int64_t run_id) = 0;
};

class AllocationRunRepository : public AllocationRunReadRepository {
 public:
  // Stores `run` in one transaction and returns its id, larger than every
  // earlier run's. INVALID_ARGUMENT (naming the field) for a negative milli
  // amount or policy_version, an empty team or flavor, a repeated (team, flavor), a bound_by
  // outside kAllocationBoundBy, inputs_json that is not a JSON object of at
  // most kMaxAllocationInputsBytes, or computed_at outside the years 1-9999.
  virtual absl::StatusOr<int64_t> StoreRun(const AllocationRunDraft& run) = 0;
};

// The validation StoreRun applies, shared by every implementation.
absl::Status ValidateAllocationRun(const AllocationRunDraft& run);

// `inputs_json` (a valid JSON object) as every implementation reads it back:
// keys sorted, no spaces, so a run reads the same from memory and from
// PostgreSQL's jsonb.
std::string CanonicalAllocationInputs(const std::string& inputs_json);

// `t` truncated to the microsecond, as every implementation keeps it.
absl::Time AllocationRunTime(absl::Time t);

}  // namespace fleetcap::store
