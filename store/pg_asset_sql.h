#pragma once
// The statements of PgCapacityRepository's asset reads (AssetTimes,
// DeviceHolds). Instants cross the wire as microseconds since the epoch
// ($1, $2: the window), device time is summed in whole milliseconds exactly
// as store::HeldMilliSeconds does, and keys are ordered bytewise (COLLATE
// "C"), as the in-memory form orders them.

namespace fleetcap::store {

// Per group of the level $6 ('model', 'cluster', 'node' or 'device'):
// (model, cluster, node, device, devices, capacity, held, idle). Each device
// interval in service is clipped to the window, and the holds of its device
// inside it are summed by one probe of holds_by_device (cluster, device_id,
// held_from) per interval: the work grows with the devices in the window
// and their holds, never with the holds of other devices. Filters $3
// cluster, $4 model, $5 node ('' for any); with a cluster the intervals are
// found through devices_in_service (cluster, in_service_from, in_service_to).
// device_time is MATERIALIZED: inlined, each interval's holds were summed
// twice, once for held and once for idle.
inline constexpr const char* kAssetTimesSql = R"sql(
WITH win AS (
  SELECT 'epoch'::timestamptz + $1::bigint * interval '1 microsecond' AS s,
         'epoch'::timestamptz + $2::bigint * interval '1 microsecond' AS e
), spans AS (
  SELECT d.cluster, d.device_id, d.node, d.model,
         greatest(d.in_service_from, win.s) AS f, least(coalesce(d.in_service_to, 'infinity'), win.e) AS t
  FROM devices d CROSS JOIN win
  WHERE d.in_service_from < win.e AND (d.in_service_to IS NULL OR d.in_service_to > win.s)
    AND ($3::text = '' OR d.cluster = $3::text) AND ($4::text = '' OR d.model = $4::text)
    AND ($5::text = '' OR d.node = $5::text)
), device_time AS MATERIALIZED (
  SELECT sp.cluster, sp.device_id, sp.node, sp.model,
         floor(extract(epoch FROM sp.t) * 1000)::bigint - floor(extract(epoch FROM sp.f) * 1000)::bigint AS capacity,
         coalesce((
           SELECT sum(h.milli::bigint * (floor(extract(epoch FROM least(coalesce(h.held_to, 'infinity'), sp.t)) * 1000)::bigint
                                         - floor(extract(epoch FROM greatest(h.held_from, sp.f)) * 1000)::bigint) / 1000)
           FROM holds h
           WHERE h.cluster = sp.cluster AND h.device_id = sp.device_id AND h.held_from < sp.t
             AND coalesce(h.held_to, 'infinity') > sp.f), 0) AS held
  FROM spans sp WHERE sp.f < sp.t
)
SELECT (CASE WHEN $6::text = 'cluster' THEN '' ELSE model END) COLLATE "C" AS model_key,
       (CASE WHEN $6::text = 'model' THEN '' ELSE cluster END) COLLATE "C" AS cluster_key,
       (CASE WHEN $6::text IN ('node', 'device') THEN node ELSE '' END) COLLATE "C" AS node_key,
       (CASE WHEN $6::text = 'device' THEN device_id ELSE '' END) COLLATE "C" AS device_key,
       count(DISTINCT (cluster, device_id)), sum(capacity)::bigint, sum(held)::bigint,
       sum(greatest(capacity - held, 0))::bigint
FROM device_time
GROUP BY 1, 2, 3, 4
ORDER BY 1, 2, 3, 4
)sql";

// The holds of device $4 of cluster $3 overlapping the window, clipped to
// it, with their pods (pod_uid, name, namespace, workload kind and name,
// team label, milli, from and to in microseconds), by (from, pod_uid), at
// most $5: through holds_by_device.
inline constexpr const char* kDeviceHoldsSql = R"sql(
WITH win AS (
  SELECT 'epoch'::timestamptz + $1::bigint * interval '1 microsecond' AS s,
         'epoch'::timestamptz + $2::bigint * interval '1 microsecond' AS e
)
SELECT h.pod_uid, coalesce(p.name, ''), coalesce(p.namespace, ''), coalesce(p.workload_kind, ''),
       coalesce(p.workload_name, ''), coalesce(p.team, ''), h.milli,
       (extract(epoch FROM greatest(h.held_from, win.s)) * 1000000)::bigint AS f,
       (extract(epoch FROM least(coalesce(h.held_to, 'infinity'), win.e)) * 1000000)::bigint
FROM holds h CROSS JOIN win
LEFT JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
WHERE h.cluster = $3::text AND h.device_id = $4::text AND h.held_from < win.e
  AND coalesce(h.held_to, 'infinity') > win.s
ORDER BY f, h.pod_uid COLLATE "C"
LIMIT $5::integer
)sql";

}  // namespace fleetcap::store
