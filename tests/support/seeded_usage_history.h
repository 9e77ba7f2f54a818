#pragma once
// The telemetry of the fleet of tests/support/seeded_hold_history.h, seeded
// in SQL on the server, for the usage read benchmark
// (tests/bench/usage_read_bench.cc) and the test that holds the usage reads
// to indexes (tests/store/usage_plans_test.cc):
//   usage_minute for the last `minute_days` days before `now`: every device
//   a row a minute (pod_uid ""), and the pod that holds it (its seeded hold)
//   a row of its own share for each minute it holds it, with every field the
//   telemetry ingest fills (node, model, namespace, pod, utilisation, memory,
//   power, energy, the profiling fields, 4 samples a minute);
//   usage_hourly for the last `hourly_days` days: each hold's hours, sixty
//   readings a row (NULL after the hold ended), as the hourly rollup writes
//   them;
//   usage_cluster_hourly (migration 0034) for every hour of the minutes,
//   rolled up from them as the hourly rollup does (no hour is stale).
// Rows are written in the order the writers leave them: minute rows minute
// by minute, every device of the fleet each minute; hourly rows hour by hour.
// The hold history's shape (devices, days, pods a device-day, clusters) must
// be the one seeded: the pods' uids are those of its holds.

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "tests/support/seeded_hold_history.h"

namespace fleetcap::testing {

struct UsageHistoryShape {
  int64_t minute_days = 7;
  int64_t hourly_days = 365;  // at most the hold history's days

  // usage_minute rows of a device a day: its own 1,440 and its pods' shares
  // (each pod holds it 80% of its slot; the open holds of the last day all of it).
  static constexpr int64_t kSamplesPerRow = 4;
};

// $1 devices, $2 days of holds, $3 pods a device-day, $4 clusters, $5 now,
// $6 the first minute of this statement's day, $7 the first minute after it.
// Device i on node i / 8 of cluster (i / 8) % clusters; pod k of device i on
// day d of the history holds it from day d + k slots for 80% of a slot.
inline constexpr const char* kUsageMinuteDaySql = R"sql(
  INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, node, model, namespace, pod, util_mean, util_max,
                            memory_used_bytes, memory_total_bytes, power_watts, energy_joules, sm_active_mean,
                            tensor_active_mean, dram_active_mean, samples)
  SELECT 'c' || ((i / 8) % $4::int), 'd-' || i, v.pod_uid, t, 'n-' || (i / 8),
         (ARRAY['bench-A100', 'bench-H100', 'bench-L4'])[(i / 8) % 3 + 1], v.namespace, v.pod_uid,
         u.util, least(u.util + 0.05, 1), 42000000000 + i * 1000, 85899345920, 250 + u.util * 400,
         (extract(epoch FROM t) - extract(epoch FROM $6::timestamptz)) * 300 + i, u.util * 0.9, u.util * 0.4,
         u.util * 0.6, 4
    FROM generate_series($6::timestamptz, $7::timestamptz - interval '1 minute', interval '1 minute') t,
         generate_series(0, $1::int - 1) i,
         LATERAL (SELECT extract(epoch FROM t - ($5::timestamptz - make_interval(days => $2::int))) AS s,
                         86400.0 / $3::int AS slot) o,
         LATERAL (SELECT floor(o.s / 86400)::int AS d, floor((o.s - floor(o.s / 86400) * 86400) / o.slot)::int AS k) dk,
         LATERAL (SELECT ((i * 37 + (extract(epoch FROM t) / 60)::bigint * 11) % 1000) / 1000.0 AS util) u,
         LATERAL (VALUES ('', ''),
                         (CASE WHEN o.s - dk.d * 86400 - dk.k * o.slot < 0.8 * o.slot
                                 OR (dk.d = $2::int - 1 AND dk.k = $3::int - 1 AND i % 10 <> 9)
                               THEN 'p-' || i || '-' || dk.d || '-' || dk.k END,
                          'ns-' || (i % 200))) v(pod_uid, namespace)
   WHERE v.pod_uid IS NOT NULL
   ORDER BY t, i, v.pod_uid)sql";

// $1..$5 as above, $6 the first hour of the rollups: each hold's hours from
// $6 on, sixty readings a row (the minutes after the hold ended NULL), hour
// by hour.
inline constexpr const char* kUsageHourlySql = R"sql(
  INSERT INTO usage_hourly (cluster, hour, pod_uid, device_id, used_milli)
  SELECT h.cluster, hr, h.pod_uid, h.device_id,
         CASE WHEN coalesce(h.held_to, $5::timestamptz) >= hr + interval '1 hour' THEN r.readings
              ELSE r.readings[1:(extract(epoch FROM coalesce(h.held_to, $5::timestamptz) - hr) / 60)::int]
                   || array_fill(NULL::smallint, ARRAY[60 - (extract(epoch FROM coalesce(h.held_to, $5::timestamptz) - hr) / 60)::int])
         END
    FROM holds h,
         generate_series(date_trunc('hour', h.held_from), coalesce(h.held_to, $5::timestamptz) - interval '1 microsecond',
                         interval '1 hour') hr,
         (SELECT n, array_agg(((n * 37 + m * 11) % 1000)::smallint ORDER BY m) AS readings
            FROM generate_series(0, 15) n, generate_series(1, 60) m GROUP BY n) r
   WHERE hr >= $6::timestamptz AND hr < $5::timestamptz
     AND r.n = abs(hashtext(h.device_id)) % 16
   ORDER BY hr, h.cluster, h.pod_uid)sql";

// Rolls up the hours of [from, to) of every cluster of `holds` into
// usage_cluster_hourly (migration 0034), hour by hour, as the hourly rollup does.
inline void RollUpClusterHours(pqxx::transaction_base& txn, const HoldHistoryShape& holds, absl::Time from,
                               absl::Time to) {
  txn.exec(absl::StrCat("SELECT fleetcap_usage_cluster_hour('c' || c, hr) FROM generate_series(date_trunc('hour', '",
                        absl::FormatTime(from), "'::timestamptz, 'UTC'), '", absl::FormatTime(to),
                        "'::timestamptz - interval '1 microsecond', interval '1 hour') hr, generate_series(0, ",
                        holds.clusters - 1, ") c ORDER BY hr, c"));
}

// Writes the usage of the hold history `holds` (seeded already, ending at
// `now`) in `txn`, with triggers off (no stale hours, no recompute marks):
// this is history, not news. Creates usage_minute's daily partitions.
inline void SeedUsageHistory(pqxx::transaction_base& txn, const HoldHistoryShape& holds, const UsageHistoryShape& usage,
                             absl::Time now) {
  txn.exec("SET LOCAL session_replication_role = replica");
  const auto time_text = [](absl::Time t) { return absl::StrCat("'", absl::FormatTime(t), "'"); };
  const auto replaced = [&](const char* sql, absl::Time from, absl::Time to) {
    return absl::StrReplaceAll(sql, {{"$1", absl::StrCat(holds.devices)},
                                     {"$2", absl::StrCat(holds.days)},
                                     {"$3", absl::StrCat(holds.pods_per_day)},
                                     {"$4", absl::StrCat(holds.clusters)},
                                     {"$5", time_text(now)},
                                     {"$6", time_text(from)},
                                     {"$7", time_text(to)}});
  };
  const absl::Time minutes_from = now - absl::Hours(24 * usage.minute_days);
  for (absl::Time day = minutes_from; day < now; day += absl::Hours(24)) {
    const absl::Time day_end = std::min(now, day + absl::Hours(24));
    // The UTC days this stretch touches have their partitions.
    for (absl::Time d : {day, day_end - absl::Minutes(1)}) {
      txn.exec(absl::StrCat("SELECT fleetcap_ensure_usage_partition((", time_text(d),
                            "::timestamptz AT TIME ZONE 'UTC')::date)"));
    }
    txn.exec(replaced(kUsageMinuteDaySql, day, day_end));
  }
  txn.exec(replaced(kUsageHourlySql, now - absl::Hours(24 * usage.hourly_days), now));
  RollUpClusterHours(txn, holds, minutes_from, now);
}

}  // namespace fleetcap::testing
