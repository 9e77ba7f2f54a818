#pragma once
// The SQL of the reads at one instant (the fleet summary), shared by the
// PostgreSQL repositories that run it and the test that holds its plans to
// indexes (tests/store/instant_plans_test.cc). $1 is the cluster ('' every
// cluster), $2 the instant (RFC 3339).
//
// A row is current at $2 when `from <= $2 AND (to IS NULL OR to > $2)`. The
// two halves are asked apart, each by its own index (migration 0029), so
// neither reads the history before the instant: open rows (`to IS NULL`,
// as many as the live fleet's) by a partial index on them, closed rows by a
// GiST index on their span [from, to), which `@> $2` stabs.

namespace fleetcap::store {

// PgLiveInventoryRepository::SummarizeAt: per model, the devices in service
// and the milli-devices held on them.
inline constexpr const char* kSummarizeAtSql = R"sql(
  WITH in_service AS (
    SELECT cluster, device_id, model FROM devices
     WHERE ($1 = '' OR cluster = $1)
       AND in_service_to IS NULL AND in_service_from <= $2::timestamptz
    UNION ALL
    SELECT cluster, device_id, model FROM devices
     WHERE ($1 = '' OR cluster = $1)
       AND in_service_to IS NOT NULL AND tstzrange(in_service_from, in_service_to) @> $2::timestamptz),
  held AS (
    SELECT cluster, device_id, sum(milli) AS milli FROM (
      SELECT cluster, device_id, milli FROM holds
       WHERE ($1 = '' OR cluster = $1)
         AND held_to IS NULL AND held_from <= $2::timestamptz
      UNION ALL
      SELECT cluster, device_id, milli FROM holds
       WHERE ($1 = '' OR cluster = $1)
         AND held_to IS NOT NULL AND tstzrange(held_from, held_to) @> $2::timestamptz) AS at_instant
     GROUP BY cluster, device_id)
  SELECT s.model, count(*), coalesce(sum(h.milli), 0)
    FROM in_service s LEFT JOIN held h USING (cluster, device_id)
   GROUP BY s.model ORDER BY s.model)sql";

// PgLiveInventoryRepository::SummarizeAt at or after the horizon: whether no
// row of `devices` or `holds` names an instant after $2 (migration 0032), so
// that what is current at $2 is the open rows, kept per (cluster, model) in
// fleet_now by the writers' triggers (store/functions/fleetcap_fleet_now.sql).
inline constexpr const char* kHorizonReachedSql = R"sql(
  SELECT coalesce(max(horizon) <= $2::timestamptz, true) FROM fleet_now_horizon
   WHERE ($1 = '' OR cluster = $1))sql";

// ... and then the summary from the kept rows: a few a cluster, whatever the
// fleet and its history. The same rows as kSummarizeAtSql at such an instant.
inline constexpr const char* kSummarizeNowSql = R"sql(
  SELECT model, sum(devices)::bigint, sum(held_milli)::bigint FROM fleet_now
   WHERE ($1 = '' OR cluster = $1)
   GROUP BY model HAVING sum(devices) > 0 ORDER BY model)sql";

// PgTeamFactsRepository::HoldersAt: per holding pod, its namespace, team
// label and the milli-devices it holds on devices in service (as above).
inline constexpr const char* kHoldersAtSql = R"sql(
  WITH held AS (
    SELECT cluster, pod_uid, device_id, milli FROM holds
     WHERE ($1 = '' OR cluster = $1)
       AND held_to IS NULL AND held_from <= $2::timestamptz
    UNION ALL
    SELECT cluster, pod_uid, device_id, milli FROM holds
     WHERE ($1 = '' OR cluster = $1)
       AND held_to IS NOT NULL AND tstzrange(held_from, held_to) @> $2::timestamptz)
  SELECT h.cluster, p.namespace, p.team, sum(h.milli)
    FROM held h
    JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id
         AND d.in_service_from <= $2::timestamptz
         AND (d.in_service_to IS NULL OR d.in_service_to > $2::timestamptz)
    JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
   GROUP BY h.cluster, h.pod_uid, p.namespace, p.team)sql";

// PgTeamFactsRepository::HoldersAt at or after the horizon (as
// kHorizonReachedSql): the kept rows (holders_now, migration 0033), per
// (cluster, namespace, team) what the open holds on open device rows hold,
// kept by the writers' triggers (store/functions/
// fleetcap_holders_now_holds_changed.sql): a few rows a namespace, whatever
// the fleet and its history. The rows of kHoldersAtSql at such an instant
// summed per (cluster, namespace, team).
inline constexpr const char* kHoldersNowSql = R"sql(
  SELECT cluster, namespace, team, held_milli FROM holders_now
   WHERE ($1 = '' OR cluster = $1) AND held_milli <> 0)sql";

// Who held devices at or after the horizon as migration 0032 read it (the
// benchmark's comparison; HoldersAt now reads kHoldersNowSql): the open holds on open device rows, each pod's
// namespace and team from the live pods' covering index (pods_live_holders,
// migration 0032: the pods in service, not a year of them), and only a pod
// no longer live (a hold left open after it went) from `pods` itself. The
// same rows as kHoldersAtSql at such an instant, one a pod.
inline constexpr const char* kHoldersOfOpenHoldsSql = R"sql(
  WITH held AS (
    SELECT h.cluster, h.pod_uid, sum(h.milli) AS milli
      FROM holds h
      JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id AND d.in_service_to IS NULL
     WHERE ($1 = '' OR h.cluster = $1) AND h.held_to IS NULL
     GROUP BY h.cluster, h.pod_uid),
  of_live AS (
    SELECT h.cluster, h.pod_uid, h.milli, p.pod_uid IS NOT NULL AS live, p.namespace, p.team
      FROM held h
      LEFT JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid AND p.deleted_at IS NULL)
  SELECT cluster, namespace, team, milli FROM of_live WHERE live
  UNION ALL
  SELECT l.cluster, p.namespace, p.team, l.milli
    FROM of_live l JOIN pods p ON p.cluster = l.cluster AND p.pod_uid = l.pod_uid
   WHERE NOT l.live)sql";

}  // namespace fleetcap::store
