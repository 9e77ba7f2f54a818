#pragma once
// The optimizer's bookkeeping a test finds stored (the hours marked to
// compute again, the watermarks) and rollup rows seeded as given. The lines
// and their sums are read through the store's ChargebackReadRepository; these
// are for what it does not read.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "pqxx/pqxx"

namespace fleetcap::testing {

// One row of chargeback_recompute: an hour marked to compute again, and the
// lease on it if one is held.
struct StoredRecomputeMark {
  std::string cluster;
  absl::Time hour;
  std::string reason;
  std::optional<absl::Time> taken_until;
};

// Every cluster's marks, ordered by (cluster, hour).
std::vector<StoredRecomputeMark> StoredRecomputeMarks(pqxx::connection& conn);

// One row of chargeback_watermarks: every hour of `cluster` before `through`
// is computed ("" is the fleet's).
struct StoredChargebackWatermark {
  std::string cluster;
  absl::Time through;
};

// Every cluster's watermark, ordered by cluster.
std::vector<StoredChargebackWatermark> StoredChargebackWatermarks(pqxx::connection& conn);

// One row of chargeback_hourly_by_team, the rollup by team that the planning
// reads (a history without the lines under it).
struct TeamHourRow {
  std::string cluster;
  absl::Time hour;
  std::string team, model, line_kind;
  int64_t held_milli_seconds = 0;
  int64_t used_milli_seconds = 0;
  int64_t direct_cost_micro = 0;
  int64_t idle_cost_micro = 0;
  int64_t shared_cost_micro = 0;
  int64_t total_cost_micro = 0;
  bool no_telemetry = false;
};

// Seeds `rows` into chargeback_hourly_by_team as given, in `txn`.
void SeedTeamHours(pqxx::transaction_base& txn, const std::vector<TeamHourRow>& rows);

}  // namespace fleetcap::testing
