-- The `request`-basis attribution of docs/attribution.md, written as one SQL
-- statement over the inventory tables, independently of the engine
-- (optimizer/attribution/): the baseline the benchmark compares the engine
-- with, and the independent computation the tests hold the engine to.
--
-- Parameters: $1, $2 the window [start, end) (timestamptz, whole hours);
-- $3 the idle rule, 'share' (idle of a (cluster, model, hour) shared over its
-- lines by their direct charge) or 'keep' (left on the `idle` line). Idle
-- scope is always `cluster`.
--
-- Reads `devices`, `holds` and `pods` (migrations 0001, 0002) and two tables
-- the caller fills (temporary tables will do):
--   baseline_prices(cluster text, model text, price_from timestamptz,
--                   price_to timestamptz NULL = open, micro_per_device_hour bigint)
--     cluster '' = every cluster; a cluster's own price wins where both are
--     in force; the prices of one (model, cluster) do not overlap.
--   baseline_teams(cluster text, namespace text, team text)
--     the team of a namespace; a pod whose namespace is not there (or that
--     the inventory does not know: namespace '') is `unassigned`.
--
-- Returns one row per line: hour, cluster, model, team, namespace, workload
-- ("Kind/name" of the pod's top controller), line_kind (`workload` or
-- `idle`), held_milli_seconds, direct_cost_micro, idle_cost_micro,
-- total_cost_micro; ordered by hour, then bytewise by cluster, model, team,
-- namespace, workload, line_kind (the engine's order).
--
-- Left out: shared namespaces, fixed monthly costs, the `usage` and `max`
-- bases, `even` idle and `node` scope. A device keeps one model and node.
-- Weights are never scaled down: the engine halves the weights of a split
-- whose sum reaches 2^62 (a (cluster, model, hour) of over ~128,000 devices
-- at 10.00 an hour), where this stays exact and may differ by a micro-unit.
--
-- Units: a weight is micro-units x milli-devices x seconds (a price per
-- device-hour times milli-devices times seconds); a device-hour is 1000 x
-- 3600 of them. Every split is a largest-remainder split done in numeric,
-- with div/mod (exact integer division); ties go to the larger weight, then
-- to the first in (team, namespace, workload) order (COLLATE "C", bytewise),
-- the idle line last.
WITH win AS MATERIALIZED (
  SELECT extract(epoch FROM $1::timestamptz)::bigint AS w0
),
-- Devices in service, clipped to the window, in Unix seconds.
dev AS MATERIALIZED (
  SELECT * FROM (
    SELECT d.cluster, d.device_id, d.model,
           extract(epoch FROM greatest(d.in_service_from, $1::timestamptz))::bigint AS f,
           extract(epoch FROM least(coalesce(d.in_service_to, $2::timestamptz), $2::timestamptz))::bigint AS t
    FROM devices d
    WHERE d.in_service_from < $2::timestamptz
      AND (d.in_service_to IS NULL OR d.in_service_to > $1::timestamptz)
  ) clipped
  WHERE f < t
),
cluster_model AS (SELECT DISTINCT cluster, model FROM dev),
-- The prices that may apply to each (cluster, model), clipped to the window.
price AS (
  SELECT * FROM (
    SELECT cm.cluster, cm.model, p.cluster <> '' AS own, p.micro_per_device_hour AS micro,
           extract(epoch FROM greatest(p.price_from, $1::timestamptz))::bigint AS f,
           extract(epoch FROM least(coalesce(p.price_to, $2::timestamptz), $2::timestamptz))::bigint AS t
    FROM cluster_model cm
    JOIN baseline_prices p ON p.model = cm.model AND (p.cluster = '' OR p.cluster = cm.cluster)
    WHERE p.price_from < $2::timestamptz AND (p.price_to IS NULL OR p.price_to > $1::timestamptz)
  ) clipped
  WHERE f < t
),
-- The window of each (cluster, model) cut where any of its prices starts or
-- ends; each piece has one price (own, else every cluster's), 0 where none.
bound AS (
  SELECT cluster, model, extract(epoch FROM $1::timestamptz)::bigint AS b FROM cluster_model
  UNION SELECT cluster, model, extract(epoch FROM $2::timestamptz)::bigint FROM cluster_model
  UNION SELECT cluster, model, f FROM price
  UNION SELECT cluster, model, t FROM price
),
segment AS (
  SELECT s.cluster, s.model, s.f, s.t,
         coalesce((SELECT p.micro FROM price p
                   WHERE p.cluster = s.cluster AND p.model = s.model AND p.f <= s.f AND s.f < p.t
                   ORDER BY p.own DESC LIMIT 1), 0) AS micro
  FROM (SELECT cluster, model, b AS f, lead(b) OVER (PARTITION BY cluster, model ORDER BY b) AS t FROM bound) s
  WHERE s.t IS NOT NULL
),
-- Each device's time in service, cut where its price changes.
dev_segment AS MATERIALIZED (
  SELECT d.cluster, d.model, d.device_id, greatest(d.f, s.f) AS f, least(d.t, s.t) AS t, s.micro
  FROM dev d
  JOIN segment s ON s.cluster = d.cluster AND s.model = d.model AND s.f < d.t AND s.t > d.f
),
-- The weight of every device of a (cluster, model) in each hour.
cell_capacity AS (
  SELECT ds.cluster, ds.model, h.hour,
         sum(ds.micro * 1000 * (least(ds.t, h.hour + 3600) - greatest(ds.f, h.hour))) AS capacity
  FROM dev_segment ds
  CROSS JOIN win
  CROSS JOIN LATERAL generate_series(ds.f - (ds.f - win.w0) % 3600, ds.t - 1, 3600) AS h(hour)
  GROUP BY ds.cluster, ds.model, h.hour
),
-- Holds in the window with their pod's namespace, workload and team.
hold AS (
  SELECT * FROM (
    SELECT h.cluster, h.pod_uid, h.device_id, h.held_from, h.milli::bigint AS milli,
           coalesce(p.namespace, '') AS namespace,
           coalesce(p.workload_kind || '/' || p.workload_name, '') AS workload,
           coalesce(bt.team, 'unassigned') AS team,
           extract(epoch FROM greatest(h.held_from, $1::timestamptz))::bigint AS f,
           extract(epoch FROM least(coalesce(h.held_to, $2::timestamptz), $2::timestamptz))::bigint AS t
    FROM holds h
    LEFT JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
    LEFT JOIN baseline_teams bt ON bt.cluster = h.cluster AND bt.namespace = coalesce(p.namespace, '')
    WHERE coalesce(h.held_to, 'infinity'::timestamptz) > $1::timestamptz AND h.held_from < $2::timestamptz
  ) clipped
  WHERE f < t
),
-- What each hold is charged on its device, hour by hour and price by price:
-- milli x seconds in service (held) and price x milli x seconds (w).
charge AS MATERIALIZED (
  SELECT ds.cluster, ds.model, ds.device_id, h.hour, ho.team, ho.namespace, ho.workload, ho.pod_uid, ho.held_from,
         ho.milli,
         ho.milli * (least(x.t, h.hour + 3600) - greatest(x.f, h.hour)) AS held,
         ds.micro * ho.milli * (least(x.t, h.hour + 3600) - greatest(x.f, h.hour)) AS w
  FROM hold ho
  JOIN dev_segment ds ON ds.cluster = ho.cluster AND ds.device_id = ho.device_id AND ds.f < ho.t AND ds.t > ho.f
  CROSS JOIN win
  CROSS JOIN LATERAL (SELECT greatest(ho.f, ds.f) AS f, least(ho.t, ds.t) AS t) x
  CROSS JOIN LATERAL generate_series(x.f - (x.f - win.w0) % 3600, x.t - 1, 3600) AS h(hour)
),
-- A device-hour can be charged past its weight only if its holds add up
-- past 1000 milli-devices: only those are compared with their capacity.
-- (A hold cut by a price change counts twice here: that only lets more through.)
maybe_over AS (
  SELECT cluster, device_id, hour, sum(w) AS charged
  FROM charge GROUP BY cluster, device_id, hour
  HAVING sum(milli) > 1000
),
over_held AS (
  SELECT m.cluster, m.device_id, m.hour, m.charged,
         sum(ds.micro * 1000 * (least(ds.t, m.hour + 3600) - greatest(ds.f, m.hour))) AS capacity
  FROM maybe_over m
  JOIN dev_segment ds ON ds.cluster = m.cluster AND ds.device_id = m.device_id AND ds.f < m.hour + 3600
                     AND ds.t > m.hour
  GROUP BY m.cluster, m.device_id, m.hour, m.charged
  HAVING m.charged > sum(ds.micro * 1000 * (least(ds.t, m.hour + 3600) - greatest(ds.f, m.hour)))
),
-- Each hold's charge on an over-held device-hour.
over_held_charge AS (
  SELECT c.cluster, c.model, c.device_id, c.hour, c.team, c.namespace, c.workload, c.pod_uid, c.held_from,
         sum(c.w) AS w, o.capacity, o.charged
  FROM charge c
  JOIN over_held o ON o.cluster = c.cluster AND o.device_id = c.device_id AND o.hour = c.hour
  GROUP BY c.cluster, c.model, c.device_id, c.hour, c.team, c.namespace, c.workload, c.pod_uid, c.held_from,
           o.capacity, o.charged
),
-- An over-held device's capacity split over its holds by what each was
-- charged: what each hold's charge changes by.
over_held_change AS (
  SELECT c.cluster, c.model, c.hour, c.team, c.namespace, c.workload,
         div(c.capacity * c.w, c.charged)
           + CASE WHEN row_number() OVER (
                         PARTITION BY c.cluster, c.device_id, c.hour
                         ORDER BY mod(c.capacity * c.w, c.charged) DESC, c.w DESC, c.team COLLATE "C",
                                  c.namespace COLLATE "C", c.workload COLLATE "C", c.pod_uid COLLATE "C", c.held_from)
                       <= c.capacity - sum(div(c.capacity * c.w, c.charged))
                                         OVER (PARTITION BY c.cluster, c.device_id, c.hour)
                  THEN 1 ELSE 0 END
           - c.w AS w
  FROM over_held_charge c
),
-- One line per (cluster, model, hour, team, namespace, workload).
line AS (
  SELECT cluster, model, hour, team, namespace, workload, sum(held) AS held, sum(w) AS direct
  FROM (SELECT cluster, model, hour, team, namespace, workload, held, w FROM charge
        UNION ALL
        SELECT cluster, model, hour, team, namespace, workload, 0, w FROM over_held_change) parts
  GROUP BY cluster, model, hour, team, namespace, workload
),
-- Each (cluster, model, hour): its capacity, the direct charges, the idle
-- (what no hold was charged for), what stays on the idle line, and its cost
-- rounded once, half up.
cell AS (
  SELECT cc.cluster, cc.model, cc.hour, cc.capacity,
         coalesce(l.direct, 0) AS direct,
         cc.capacity - coalesce(l.direct, 0) AS idle,
         CASE WHEN $3::text = 'keep' OR coalesce(l.direct, 0) = 0 THEN cc.capacity - coalesce(l.direct, 0)
              ELSE 0 END AS kept,
         div(cc.capacity + 1800000, 3600000) AS cost
  FROM cell_capacity cc
  LEFT JOIN (SELECT cluster, model, hour, sum(direct) AS direct FROM line GROUP BY cluster, model, hour) l
         ON l.cluster = cc.cluster AND l.model = cc.model AND l.hour = cc.hour
),
-- Idle shared over the lines by their direct charge (none when kept).
line_with_idle AS (
  SELECT l.cluster, l.model, l.hour, l.team, l.namespace, l.workload, l.held, l.direct,
         CASE WHEN c.kept > 0 OR c.idle = 0 THEN 0
              ELSE div(c.idle * l.direct, nullif(c.direct, 0))
                     + CASE WHEN row_number() OVER (
                                   PARTITION BY l.cluster, l.model, l.hour
                                   ORDER BY mod(c.idle * l.direct, nullif(c.direct, 0)) DESC, l.direct DESC,
                                            l.team COLLATE "C", l.namespace COLLATE "C", l.workload COLLATE "C")
                                 <= c.idle - sum(div(c.idle * l.direct, nullif(c.direct, 0)))
                                               OVER (PARTITION BY l.cluster, l.model, l.hour)
                            THEN 1 ELSE 0 END
         END AS idle
  FROM line l
  JOIN cell c ON c.cluster = l.cluster AND c.model = l.model AND c.hour = l.hour
),
-- The lines and the idle line (when anything is kept), each with its weight.
item AS (
  SELECT cluster, model, hour, team, namespace, workload, 'workload' AS line_kind, 0 AS idle_last,
         held, direct, idle
  FROM line_with_idle
  UNION ALL
  SELECT cluster, model, hour, 'idle', '', '', 'idle', 1, 0, 0, kept
  FROM cell WHERE kept > 0
),
-- The cell's cost split over its lines by their weights.
item_total AS (
  SELECT i.*,
         coalesce(div(c.cost * (i.direct + i.idle), nullif(c.capacity, 0)), 0)
           + CASE WHEN row_number() OVER (
                         PARTITION BY i.cluster, i.model, i.hour
                         ORDER BY mod(c.cost * (i.direct + i.idle), nullif(c.capacity, 0)) DESC,
                                  i.direct + i.idle DESC, i.idle_last, i.team COLLATE "C", i.namespace COLLATE "C",
                                  i.workload COLLATE "C")
                       <= c.cost - coalesce(sum(div(c.cost * (i.direct + i.idle), nullif(c.capacity, 0)))
                                               OVER (PARTITION BY i.cluster, i.model, i.hour), 0)
                  THEN 1 ELSE 0 END AS total
  FROM item i
  JOIN cell c ON c.cluster = i.cluster AND c.model = i.model AND c.hour = i.hour
),
-- Each line's total split over its direct and idle parts (ties: direct).
item_parts AS (
  SELECT t.*,
         coalesce(div(t.total * t.direct, nullif(t.direct + t.idle, 0)), 0)
           + CASE WHEN t.total - coalesce(div(t.total * t.direct, nullif(t.direct + t.idle, 0)), 0)
                          - coalesce(div(t.total * t.idle, nullif(t.direct + t.idle, 0)), 0) > 0
                       AND (mod(t.total * t.direct, nullif(t.direct + t.idle, 0))
                              > mod(t.total * t.idle, nullif(t.direct + t.idle, 0))
                            OR (mod(t.total * t.direct, nullif(t.direct + t.idle, 0))
                                  = mod(t.total * t.idle, nullif(t.direct + t.idle, 0))
                                AND t.direct >= t.idle))
                  THEN 1 ELSE 0 END AS direct_cost
  FROM item_total t
)
SELECT to_timestamp(hour) AS hour, cluster, model, team, namespace, workload, line_kind,
       held::bigint AS held_milli_seconds,
       direct_cost::bigint AS direct_cost_micro,
       (total - direct_cost)::bigint AS idle_cost_micro,
       total::bigint AS total_cost_micro
FROM item_parts
ORDER BY hour, cluster COLLATE "C", model COLLATE "C", team COLLATE "C", namespace COLLATE "C",
         workload COLLATE "C", line_kind COLLATE "C"
