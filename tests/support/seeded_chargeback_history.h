#pragma once
// A year of chargeback, as the optimizer's hourly pass would have left it,
// seeded in SQL on the server, for the long-window read benchmark
// (tests/bench/long_read_bench.cc) and the test that holds those reads to
// their rollups and indexes (tests/store/long_read_plans_test.cc):
//   `days` days of hours ending at `now` over `clusters` clusters "c0"...;
//   `teams` teams "t-0"... with `workloads_per_team` workloads each, every
//   workload in one cluster on one of the three models of
//   tests/support/seeded_hold_history.h, one `workload` line an hour each;
//   one `shared` line a team an hour, and one `idle` line (team "idle") a
//   cluster and model an hour.
// chargeback_hourly holds the lines, written hour after hour; every rollup of them (the tables
// ReplaceHours rebuilds) is filled from them as ReplaceHours fills it, by
// the same GROUP BY, in the order of its period.

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"

namespace fleetcap::testing {

struct ChargebackHistoryShape {
  int64_t days = 365;
  int64_t clusters = 3;
  int64_t teams = 200;
  int64_t workloads_per_team = 3;
  // Milli-device-seconds one workload holds an hour.
  int64_t held_per_workload_hour = 3'600'000;

  int64_t lines_an_hour() const { return teams * workloads_per_team + teams + clusters * 3; }
  int64_t hourly_lines() const { return days * 24 * lines_an_hour(); }
};

// The sums' columns, as every chargeback table names them.
inline constexpr const char* kSeedSums =
    "held_milli_seconds, used_milli_seconds, observed_milli_seconds, direct_cost_micro, idle_cost_micro,"
    " shared_cost_micro, total_cost_micro";
inline constexpr const char* kSeedSummed =
    "sum(held_milli_seconds), sum(used_milli_seconds), sum(observed_milli_seconds), sum(direct_cost_micro),"
    " sum(idle_cost_micro), sum(shared_cost_micro), sum(total_cost_micro)";

// The hourly lines (each $N replaced by its value): $1 days, $2 clusters, $3
// teams, $4 workloads a team, $5 the end of the history ("now"), $6 held a
// workload-hour. Workload w of team t is workload k = t * $4 + w, in cluster
// k mod $2, on model (k / $2) mod 3.
inline constexpr const char* kChargebackHourlySql = R"sql(
INSERT INTO chargeback_hourly (cluster, hour, team, namespace, workload, model, line_kind, held_milli_seconds,
                               used_milli_seconds, observed_milli_seconds, direct_cost_micro, idle_cost_micro,
                               shared_cost_micro, total_cost_micro, no_telemetry)
SELECT l.cluster, h.hour, l.team, l.namespace, l.workload, l.model, l.line_kind, l.held, l.held * 6 / 10, l.held,
       l.direct, l.idle, l.shared, l.direct + l.idle + l.shared, false
  FROM (SELECT $5::timestamptz - make_interval(hours => $1::int * 24 - j) AS hour
          FROM generate_series(0, $1::int * 24 - 1) j) h,
       LATERAL (
         SELECT 'c' || (k % $2::int) AS cluster, 't-' || (k / $4::int) AS team, 'ns-' || (k / $4::int) AS namespace,
                'Job/w-' || k AS workload, (ARRAY['bench-A100', 'bench-H100', 'bench-L4'])[(k / $2::int) % 3 + 1] AS model,
                'workload' AS line_kind, $6::bigint AS held, $6::bigint / 1000 AS direct, $6::bigint / 4000 AS idle,
                0::bigint AS shared
           FROM generate_series(0, $3::int * $4::int - 1) k
         UNION ALL
         SELECT 'c' || (k % $2::int), 't-' || (k / $4::int), '', '',
                (ARRAY['bench-A100', 'bench-H100', 'bench-L4'])[(k / $2::int) % 3 + 1], 'shared', 0, 0, 0,
                $6::bigint / 2000
           FROM generate_series(0, $3::int * $4::int - 1, $4::int) k
         UNION ALL
         SELECT 'c' || c, 'idle', '', '', m, 'idle', 0, 0, $6::bigint / 100, 0
           FROM generate_series(0, $2::int - 1) c, unnest(ARRAY['bench-A100', 'bench-H100', 'bench-L4']) m) l)sql";

// The rollups: (table, its period column, the table it sums, that table's
// time column, the keys after cluster and period), in the order each is
// filled from the one before.
struct SeedRollup {
  const char* table;
  const char* period;
  const char* from;
  const char* from_time;
  const char* keys;
};
inline constexpr SeedRollup kSeedRollups[] = {
    {"chargeback_hourly_by_team", "hour", "chargeback_hourly", "hour", "team, model, line_kind"},
    {"chargeback_daily", "day", "chargeback_hourly", "hour", "team, namespace, workload, model, line_kind"},
    {"chargeback_daily_by_team", "day", "chargeback_hourly_by_team", "hour", "team, model, line_kind"},
    {"chargeback_monthly", "month", "chargeback_daily", "day", "team, namespace, workload, model, line_kind"},
    {"chargeback_hourly_by_model", "hour", "chargeback_hourly_by_team", "hour", "model, line_kind"},
    {"chargeback_monthly_by_team", "month", "chargeback_daily_by_team", "day", "team, model, line_kind"},
};

// Writes the year in `txn`, with triggers off: this is history, not news.
inline void SeedChargebackHistory(pqxx::transaction_base& txn, const ChargebackHistoryShape& shape, absl::Time now) {
  txn.exec("SET LOCAL session_replication_role = replica");
  txn.exec("INSERT INTO clusters (cluster) SELECT 'c' || c FROM generate_series(0, " + std::to_string(shape.clusters) +
           " - 1) c ON CONFLICT DO NOTHING");
  txn.exec(absl::StrReplaceAll(kChargebackHourlySql, {{"$1", absl::StrCat(shape.days)},
                                                      {"$2", absl::StrCat(shape.clusters)},
                                                      {"$3", absl::StrCat(shape.teams)},
                                                      {"$4", absl::StrCat(shape.workloads_per_team)},
                                                      {"$5", absl::StrCat("'", absl::FormatTime(now), "'")},
                                                      {"$6", absl::StrCat(shape.held_per_workload_hour)}}));
  for (const SeedRollup& r : kSeedRollups) {
    txn.exec(absl::StrCat("INSERT INTO ", r.table, " (cluster, ", r.period, ", ", r.keys, ", ", kSeedSums,
                          ", no_telemetry) SELECT cluster, date_trunc('", r.period, "', ", r.from_time, ", 'UTC'), ",
                          r.keys, ", ", kSeedSummed, ", bool_or(no_telemetry) FROM ", r.from, " GROUP BY cluster, 2, ",
                          r.keys, " ORDER BY 2"));
  }
}

}  // namespace fleetcap::testing
