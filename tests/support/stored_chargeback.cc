#include "tests/support/stored_chargeback.h"

#include "common/time_util.h"

namespace fleetcap::testing {

std::vector<StoredRecomputeMark> StoredRecomputeMarks(pqxx::connection& conn) {
  std::vector<StoredRecomputeMark> out;
  for (const auto& r : pqxx::nontransaction(conn).exec(
           "SELECT cluster, (extract(epoch FROM hour) * 1000000)::bigint, reason,"
           " (extract(epoch FROM taken_until) * 1000000)::bigint FROM chargeback_recompute ORDER BY cluster, hour")) {
    StoredRecomputeMark mark{r[0].as<std::string>(), absl::FromUnixMicros(r[1].as<int64_t>()), r[2].as<std::string>(),
                             std::nullopt};
    if (!r[3].is_null()) mark.taken_until = absl::FromUnixMicros(r[3].as<int64_t>());
    out.push_back(std::move(mark));
  }
  return out;
}

std::vector<StoredChargebackWatermark> StoredChargebackWatermarks(pqxx::connection& conn) {
  std::vector<StoredChargebackWatermark> out;
  for (const auto& r : pqxx::nontransaction(conn).exec(
           "SELECT cluster, (extract(epoch FROM through) * 1000000)::bigint FROM chargeback_watermarks"
           " ORDER BY cluster")) {
    out.push_back({r[0].as<std::string>(), absl::FromUnixMicros(r[1].as<int64_t>())});
  }
  return out;
}

void SeedTeamHours(pqxx::transaction_base& txn, const std::vector<TeamHourRow>& rows) {
  for (const TeamHourRow& r : rows) {
    txn.exec_params(
        "INSERT INTO chargeback_hourly_by_team (cluster, hour, team, model, line_kind, held_milli_seconds,"
        " used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro, total_cost_micro, no_telemetry)"
        " VALUES ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        r.cluster, FormatRfc3339(r.hour), r.team, r.model, r.line_kind, r.held_milli_seconds, r.used_milli_seconds,
        r.direct_cost_micro, r.idle_cost_micro, r.shared_cost_micro, r.total_cost_micro, r.no_telemetry);
  }
}

}  // namespace fleetcap::testing
