#pragma once
// A fleet with a long history of holds, seeded in SQL on the server, for the
// summary read benchmark (tests/bench/summary_read_bench.cc) and the test
// that holds the reads at one instant to indexes
// (tests/store/instant_plans_test.cc):
//   `devices` devices (8 a node, 3 models, over `clusters` clusters "c0"...),
//   each in service since before the history began (one in 20 taken out for
//   a day in the middle), and
//   `days` days of holds ending at `now`: each device held by `pods_per_day`
//   pods a day, one after the other, each for 80% of its slot (every pod is a
//   row of `pods` too, deleted when its hold ends); the last pod of nine
//   devices in ten still holds its whole device (an open hold) at `now`.
//   Rows are written in the order the ingest leaves them: a hold's (and its
//   pod's) final row version when it ends, an open one when it begins.

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"

namespace fleetcap::testing {

struct HoldHistoryShape {
  int64_t devices = 6000;
  int64_t days = 365;
  int64_t pods_per_day = 2;
  int64_t clusters = 3;
  // The last days of the history that have holds (0: every day); the devices
  // are in service over all of it whatever this is.
  int64_t hold_days = 0;

  int64_t holds() const { return devices * (hold_days > 0 ? hold_days : days) * pods_per_day; }
  // Milli-devices held at the end of the history.
  int64_t open_milli() const { return (devices - devices / 10) * 1000; }
};

// The seed, in SQL on the server (each $N replaced by its value): $1 devices, $2 days, $3 pods a device-day,
// $4 clusters, $5 the end of the history ("now"), $6 the days with holds. Triggers (and with them the
// foreign keys, the chargeback's recompute marks and the summary's kept state)
// are off while it runs: this is history, not news. The kept state (migrations
// 0032, 0033) is filled from it at the end, as applying its functions does.
inline constexpr const char* kHoldHistorySql[] = {
    "INSERT INTO clusters (cluster) SELECT 'c' || c FROM generate_series(0, $4::int - 1) c",
    "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES"
    " ('bench-A100', 'nvidia', 'nvidia.com/gpu'), ('bench-H100', 'nvidia', 'nvidia.com/gpu'),"
    " ('bench-L4', 'nvidia', 'nvidia.com/gpu') ON CONFLICT DO NOTHING",
    R"sql(INSERT INTO nodes (cluster, node, pool, in_service_from)
       SELECT 'c' || (n % $4::int), 'n-' || n, 'pool-' || (n % 3), $5::timestamptz - make_interval(days => $2::int + 1)
         FROM generate_series(0, ($1::int + 7) / 8 - 1) n)sql",
    // Device i sits on node i / 8; one in 20 was out of service for a day in the middle.
    R"sql(INSERT INTO devices (cluster, device_id, node, device_index, model, in_service_from, in_service_to)
       SELECT 'c' || ((i / 8) % $4::int), 'd-' || i, 'n-' || (i / 8), i % 8,
              (ARRAY['bench-A100', 'bench-H100', 'bench-L4'])[(i / 8) % 3 + 1], f, t
         FROM generate_series(0, $1::int - 1) i,
              LATERAL (SELECT $5::timestamptz - make_interval(days => $2::int + 1) AS since,
                              $5::timestamptz - make_interval(days => $2::int / 2) AS mid) m,
              LATERAL (VALUES (m.since, CASE WHEN i % 20 = 7 THEN m.mid END),
                              (m.mid + interval '1 day', NULL)) AS v(f, t)
        WHERE i % 20 = 7 OR v.f = m.since)sql",
    // The devices' capacity steps (migration 0031), as fleetcap_capacity_steps keeps them.
    R"sql(INSERT INTO capacity_steps (cluster, model, at, devices)
       SELECT cluster, model, at, sum(d)
         FROM (SELECT cluster, model, in_service_from AS at, 1 AS d FROM devices
               UNION ALL SELECT cluster, model, in_service_to, -1 FROM devices WHERE in_service_to IS NOT NULL) e
        GROUP BY 1, 2, 3)sql",
    // Pod k of device i on day d holds it for 80% of its slot; the very last
    // of nine devices in ten is still held (open) at the end.
    R"sql(CREATE TEMP TABLE bench_holds AS
       SELECT 'c' || ((i / 8) % $4::int) AS cluster, 'p-' || i || '-' || d || '-' || k AS pod_uid,
              'd-' || i AS device_id, 'n-' || (i / 8) AS node, 'ns-' || (i % 200) AS namespace, i,
              f AS held_from,
              CASE WHEN d = $2::int - 1 AND k = $3::int - 1 AND i % 10 <> 9 THEN NULL
                   ELSE f + (interval '1 day' / $3::int) * 0.8 END AS held_to
         FROM generate_series(0, $1::int - 1) i, generate_series($2::int - $6::int, $2::int - 1) d, generate_series(0, $3::int - 1) k,
              LATERAL (SELECT $5::timestamptz - make_interval(days => $2::int - d)
                              + (interval '1 day' / $3::int) * k AS f) s)sql",
    R"sql(INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, phase,
                        created_at, scheduled_at, deleted_at, requested_milli, node)
       SELECT cluster, pod_uid, namespace, pod_uid, 't-' || (i % 200 / 10), 'Job', pod_uid,
              CASE WHEN held_to IS NULL THEN 'Running' ELSE 'Succeeded' END,
              held_from, held_from, held_to, 1000, node
         FROM bench_holds ORDER BY coalesce(held_to, held_from))sql",
    R"sql(INSERT INTO holds (cluster, pod_uid, device_id, milli, held_from, held_to)
       SELECT cluster, pod_uid, device_id, 1000, held_from, held_to FROM bench_holds
        ORDER BY coalesce(held_to, held_from))sql",
    "DROP TABLE bench_holds",
    // The summary's kept state (migrations 0032, 0033), which the triggers keep for news.
    "SELECT fleetcap_fleet_now_rebuild()",
    "SELECT fleetcap_holders_now_rebuild()",
};

// Writes the history in `txn`, with triggers (and so foreign keys and the
// chargeback's recompute marks) off: this is history, not news. The
// statement that inserts the holds is timed into `holds_insert` when given.
inline void SeedHoldHistory(pqxx::transaction_base& txn, const HoldHistoryShape& shape, absl::Time now,
                            absl::Duration* holds_insert = nullptr) {
  txn.exec("SET LOCAL session_replication_role = replica");
  for (const char* sql : kHoldHistorySql) {
    const absl::Time step = absl::Now();
    txn.exec(absl::StrReplaceAll(sql, {{"$1", absl::StrCat(shape.devices)},
                                       {"$2", absl::StrCat(shape.days)},
                                       {"$3", absl::StrCat(shape.pods_per_day)},
                                       {"$4", absl::StrCat(shape.clusters)},
                                       {"$6", absl::StrCat(shape.hold_days > 0 ? shape.hold_days : shape.days)},
                                       {"$5", absl::StrCat("'", absl::FormatTime(now), "'")}}));
    if (holds_insert != nullptr && std::string(sql).rfind("INSERT INTO holds", 0) == 0) {
      *holds_insert = absl::Now() - step;
    }
  }
}

}  // namespace fleetcap::testing
