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

// Before the horizon (store/instant_sources.h, migration 0036): per cluster,
// its horizon, the earliest start of its holds and device rows, and its
// nearest summary checkpoints at or before, and after, $2, in microseconds
// since the Unix epoch (NULL: none); then how many holds began or ended
// between $2 and each of them and its horizon, each counted up to
// kChangesCounted (store/instant_sources.h) starts and as many ends: a
// window can hold a mass start (every pod of a big job at once), and the
// read takes the side with fewer changes, or the facts when every side has
// more than were counted.
inline constexpr const char* kInstantSourcesSql = R"sql(
  SELECT c.cluster, (extract(epoch FROM h.horizon) * 1000000)::bigint,
         (extract(epoch FROM least((SELECT min(held_from) FROM holds WHERE cluster = c.cluster),
                                   (SELECT min(in_service_from) FROM devices WHERE cluster = c.cluster)))
          * 1000000)::bigint,
         (extract(epoch FROM b.at) * 1000000)::bigint, (extract(epoch FROM a.at) * 1000000)::bigint,
         CASE WHEN b.at IS NOT NULL THEN (
           (SELECT count(*) FROM (SELECT 1 FROM holds WHERE cluster = c.cluster
               AND held_from > b.at AND held_from <= $2::timestamptz LIMIT 10000) s)
           + (SELECT count(*) FROM (SELECT 1 FROM holds WHERE cluster = c.cluster
               AND coalesce(held_to, 'infinity'::timestamptz) > b.at
               AND coalesce(held_to, 'infinity'::timestamptz) <= $2::timestamptz LIMIT 10000) e)) END,
         CASE WHEN a.at IS NOT NULL THEN (
           (SELECT count(*) FROM (SELECT 1 FROM holds WHERE cluster = c.cluster
               AND held_from > $2::timestamptz AND held_from <= a.at LIMIT 10000) s)
           + (SELECT count(*) FROM (SELECT 1 FROM holds WHERE cluster = c.cluster
               AND coalesce(held_to, 'infinity'::timestamptz) > $2::timestamptz
               AND coalesce(held_to, 'infinity'::timestamptz) <= a.at LIMIT 10000) e)) END,
         CASE WHEN h.horizon IS NOT NULL THEN (
           (SELECT count(*) FROM (SELECT 1 FROM holds WHERE cluster = c.cluster
               AND held_from > $2::timestamptz AND held_from <= h.horizon LIMIT 10000) s)
           + (SELECT count(*) FROM (SELECT 1 FROM holds WHERE cluster = c.cluster
               AND coalesce(held_to, 'infinity'::timestamptz) > $2::timestamptz
               AND coalesce(held_to, 'infinity'::timestamptz) <= h.horizon LIMIT 10000) e)) END
    FROM clusters c LEFT JOIN fleet_now_horizon h USING (cluster)
    CROSS JOIN LATERAL (SELECT max(i.at) FROM instant_checkpoints i
                         WHERE i.cluster = c.cluster AND i.at <= $2::timestamptz) AS b(at)
    CROSS JOIN LATERAL (SELECT min(i.at) FROM instant_checkpoints i
                         WHERE i.cluster = c.cluster AND i.at > $2::timestamptz) AS a(at)
   WHERE ($1 = '' OR c.cluster = $1))sql";

// The change between two instants, as CTEs: `sign` times what is current
// at `hi` less what is current at `lo` (lo <= hi), per cluster. A hold
// counts once per device row it shares a span with, as the reads above join
// them, so the change is the pairs whose common span [greatest(froms),
// least(tos)) begins in (lo, hi] less those whose common span ends there;
// every such pair has its hold or its device row begin or end in (lo, hi],
// each found by an index on its start or end (holds_by_time, holds_by_end,
// devices_in_service, devices_closed_by_end). A pair that changes in (lo,
// hi] begins by hi and ends after lo: a device row that began or ended then
// is paired with its holds of that time only, and only the pairs that
// changed are looked up in pods.
// kChangedHoldsOf and kChangedDevicesOf are one cluster's (absl::Substitute:
// $0 the cluster, $1 lo, $2 hi, $3 sign, as SQL literals, so that the
// planner sees the range it reads and probes the few rows in it);
// changed_holds and changed_devices are their UNION ALL over the clusters,
// and kInstantChangesCtes follows them:
//   pair_changes(cluster, pod_uid, model, held): milli-devices held;
//   device_changes(model, devices): device rows in service.
inline constexpr const char* kChangedHoldsOf = R"sql(
    (SELECT h.cluster, h.pod_uid, h.device_id, h.held_from, h.held_to, h.milli, $1 AS lo, $2 AS hi, $3 AS sign
       FROM holds h WHERE h.cluster = $0 AND h.held_from > $1 AND h.held_from <= $2
     UNION
     SELECT h.cluster, h.pod_uid, h.device_id, h.held_from, h.held_to, h.milli, $1, $2, $3
       FROM holds h WHERE h.cluster = $0
        AND coalesce(h.held_to, 'infinity'::timestamptz) > $1 AND coalesce(h.held_to, 'infinity'::timestamptz) <= $2))sql";
inline constexpr const char* kChangedDevicesOf = R"sql(
    (SELECT d.cluster, d.device_id, d.model, d.in_service_from, d.in_service_to, $1 AS lo, $2 AS hi, $3 AS sign
       FROM devices d WHERE d.cluster = $0 AND d.in_service_from > $1 AND d.in_service_from <= $2
     UNION
     SELECT d.cluster, d.device_id, d.model, d.in_service_from, d.in_service_to, $1, $2, $3
       FROM devices d WHERE d.cluster = $0 AND d.in_service_to IS NOT NULL
        AND d.in_service_to > $1 AND d.in_service_to <= $2))sql";
inline constexpr const char* kInstantChangesCtes = R"sql(
  pairs AS (
    SELECT h.cluster, h.pod_uid, h.device_id, h.held_from, h.milli, d.model, d.in_service_from,
           greatest(h.held_from, d.in_service_from) AS s,
           least(coalesce(h.held_to, 'infinity'::timestamptz), coalesce(d.in_service_to, 'infinity'::timestamptz)) AS e,
           h.lo, h.hi, h.sign
      FROM changed_holds h JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id
       AND d.in_service_from < coalesce(h.held_to, 'infinity'::timestamptz)
       AND coalesce(d.in_service_to, 'infinity'::timestamptz) > h.held_from
       AND d.in_service_from <= h.hi AND coalesce(d.in_service_to, 'infinity'::timestamptz) > h.lo
    UNION
    SELECT h.cluster, h.pod_uid, h.device_id, h.held_from, h.milli, d.model, d.in_service_from,
           greatest(h.held_from, d.in_service_from),
           least(coalesce(h.held_to, 'infinity'::timestamptz), coalesce(d.in_service_to, 'infinity'::timestamptz)),
           d.lo, d.hi, d.sign
      FROM changed_devices d JOIN holds h ON h.cluster = d.cluster AND h.device_id = d.device_id
       AND h.held_from < coalesce(d.in_service_to, 'infinity'::timestamptz)
       AND coalesce(h.held_to, 'infinity'::timestamptz) > d.in_service_from
       AND h.held_from <= d.hi AND coalesce(h.held_to, 'infinity'::timestamptz) > d.lo),
  pair_changes AS (
    SELECT * FROM (
      SELECT cluster, pod_uid, model, sign * milli::bigint * ((s > lo AND s <= hi)::int - (e > lo AND e <= hi)::int) AS held
        FROM pairs) AS p
     WHERE held <> 0),
  device_changes AS (
    SELECT model, sign * ((in_service_from > lo AND in_service_from <= hi)::int
                          - (coalesce(in_service_to, 'infinity'::timestamptz) > lo
                             AND coalesce(in_service_to, 'infinity'::timestamptz) <= hi)::int) AS devices
      FROM changed_devices))sql";

// The summary per model from the bases `w(cluster, base_at)` (base_at NULL
// for the kept "now") and the changes of kInstantChangesCtes, which it
// follows: the same rows as kSummarizeAtSql.
inline constexpr const char* kSummaryFromSourcesSql = R"sql(
  SELECT model, sum(devices)::bigint, sum(held)::bigint FROM (
    SELECT f.model, f.devices, f.held_milli AS held FROM w JOIN fleet_now f ON f.cluster = w.cluster
     WHERE w.base_at IS NULL
    UNION ALL
    SELECT s.model, s.devices, s.held_milli FROM w JOIN summary_checkpoints s
        ON s.cluster = w.cluster AND s.at = w.base_at
    UNION ALL
    SELECT model, 0, held FROM pair_changes
    UNION ALL
    SELECT model, devices, 0 FROM device_changes) AS x
   GROUP BY model HAVING sum(devices) > 0 ORDER BY model)sql";

// Who held devices per (cluster, namespace, team) from the bases and changes
// (as above), as kHoldersNowSql's rows: kHoldersAtSql's summed per namespace and team.
inline constexpr const char* kHoldersFromSourcesSql = R"sql(
  SELECT cluster, namespace, team, sum(held)::bigint FROM (
    SELECT f.cluster, f.namespace, f.team, f.held_milli AS held FROM w JOIN holders_now f ON f.cluster = w.cluster
     WHERE w.base_at IS NULL
    UNION ALL
    SELECT s.cluster, s.namespace, s.team, s.held_milli FROM w JOIN holder_checkpoints s
        ON s.cluster = w.cluster AND s.at = w.base_at
    UNION ALL
    SELECT c.cluster, p.namespace, p.team, c.held FROM pair_changes c
      JOIN pods p ON p.cluster = c.cluster AND p.pod_uid = c.pod_uid) AS x
   GROUP BY cluster, namespace, team HAVING sum(held) <> 0)sql";

}  // namespace fleetcap::store
