-- Representative rows for the storage arithmetic of docs/scaling.md, made
-- from the synthetic cluster `bench` that `fleetcap-ingest replay` stored
-- (its devices, pods and holds carry the real shapes of ids and names):
-- :minutes minutes of usage (a device row and a row for the pod holding the
-- device, per device and minute), a day of hourly rollups and chargeback
-- lines (one per workload, model and hour), the telemetry ingest's series and
-- progress. Then per table: rows, bytes on disk with indexes and TOAST, bytes
-- per row, and the heap tuple's own size (pg_column_size of the row).
\set ON_ERROR_STOP on
SET client_min_messages = warning;

SELECT fleetcap_ensure_usage_partition('2026-03-02') AS created \gset

CREATE TEMP TABLE holder AS  -- the pod on each device (its latest hold)
SELECT DISTINCT ON (d.device_id) d.device_id, d.node, d.model, h.pod_uid, p.namespace, p.name AS pod,
       p.workload_kind, p.workload_name
  FROM devices d
  JOIN holds h ON h.cluster = d.cluster AND h.device_id = d.device_id
  JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
 WHERE d.cluster = 'bench'
 ORDER BY d.device_id, h.held_from DESC;

-- Per-minute usage: the device's own row and its pod's row, every minute.
-- :dcgm false: each row's values drawn afresh from random() (no value repeats,
-- every bit random: the worst case for any encoding; the lateral names the
-- device so that no plan reuses one minute's draw for every device). :dcgm true: the values
-- dcgm-exporter's samples make (four a minute, 15 s apart, through
-- ingest/telemetry/default_mapping.yaml): utilisation in whole percent x 0.01,
-- memory in MiB x 1048576, power and profiling ratios with the exporter's
-- decimals, energy a counter in mJ x 0.001, each device about its own level;
-- the pod on a whole GPU reports the device's series, so its row carries the
-- device's values. :gaps true (with :dcgm) takes some of them out or makes
-- them odd, below.
\if :dcgm
CREATE TEMP TABLE dcgm_samples AS
SELECT d.device_id, m, least(100, greatest(0, round(b * 100 + (random() - 0.5) * 10)))::float8 * 0.01 AS util,
       round((70 + 500 * b + (random() - 0.5) * 20)::numeric, 3)::float8 AS power,
       round(least(1, greatest(0, b * 0.9 + (random() - 0.5) * 0.05))::numeric, 6)::float8 AS sm,
       round(least(1, greatest(0, b * 0.5 + (random() - 0.5) * 0.05))::numeric, 6)::float8 AS tensor,
       round(least(1, greatest(0, b * 0.4 + (random() - 0.5) * 0.05))::numeric, 6)::float8 AS dram,
       (20000 + 60000 * b)::int + 10 * (m / 20) AS memory_mib
  FROM (SELECT device_id, random() AS b FROM devices WHERE cluster = 'bench' AND in_service_to IS NULL) d,
       generate_series(0, :minutes - 1) m, generate_series(0, 3) s;
CREATE TEMP TABLE dcgm_minutes AS
SELECT device_id, '2026-03-02'::timestamptz + m * interval '1 minute' AS minute, sum(util) / 4 AS util_mean,
       max(util) AS util_max, (sum(memory_mib) / 4)::bigint * 1048576 AS memory_used_bytes, sum(power) / 4 AS power_watts,
       round(sum(power) * 15000)::float8 * 0.001 AS energy_joules, sum(sm) / 4 AS sm_active_mean,
       sum(tensor) / 4 AS tensor_active_mean, sum(dram) / 4 AS dram_active_mean
  FROM dcgm_samples GROUP BY device_id, m;
INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, util_mean, util_max, memory_used_bytes, power_watts,
                          energy_joules, samples, node, model, namespace, pod, memory_total_bytes, sm_active_mean,
                          tensor_active_mean, dram_active_mean)
SELECT 'bench', d.device_id, coalesce(h.pod_uid, ''), x.minute, x.util_mean, x.util_max, x.memory_used_bytes,
       x.power_watts, x.energy_joules, 4, d.node, d.model, coalesce(h.namespace, ''), coalesce(h.pod, ''), 85899345920,
       x.sm_active_mean, x.tensor_active_mean, x.dram_active_mean
  FROM devices d
  JOIN dcgm_minutes x ON x.device_id = d.device_id
  LEFT JOIN LATERAL (SELECT NULL::text AS pod_uid, NULL::text AS namespace, NULL::text AS pod
                     UNION ALL
                     SELECT pod_uid, namespace, pod FROM holder WHERE holder.device_id = d.device_id) h ON true
 WHERE d.cluster = 'bench' AND d.in_service_to IS NULL;
-- :gaps true: what the property of reading back every row bit for bit must
-- also hold over: minutes missing, pods that came mid-hour, devices without
-- profiling fields, a pod's minute that is not its device's, and floats the
-- ingest stores that are odd: -0 (equal to 0, other bits), subnormals, the
-- largest utilisation below the exporters' blank sentinel (NaN and the
-- infinities never reach the store: the normaliser drops them).
\if :gaps
DELETE FROM usage_minute WHERE abs(hashtext(device_id || minute::text)) % 11 = 0;
DELETE FROM usage_minute
 WHERE pod_uid <> '' AND abs(hashtext(pod_uid)) % 3 = 0 AND extract(minute FROM minute) < abs(hashtext(pod_uid)) % 30;
UPDATE usage_minute SET sm_active_mean = NULL, tensor_active_mean = NULL, dram_active_mean = NULL
 WHERE abs(hashtext(device_id)) % 4 = 0;
UPDATE usage_minute SET util_mean = util_mean / 2 WHERE pod_uid <> '' AND abs(hashtext(pod_uid || minute::text)) % 19 = 0;
UPDATE usage_minute
   SET util_mean = (ARRAY['-0', '0', '4.9e-324', '2.2250738585072014e-308', '0.30000000000000004', '9.2e16'])
                   [1 + abs(hashtext(device_id || pod_uid || minute::text)) % 6]::float8
 WHERE abs(hashtext(device_id || pod_uid || minute::text || 'odd')) % 17 = 0;
\endif
\else
INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, util_mean, util_max, memory_used_bytes, power_watts,
                          energy_joules, samples, node, model, namespace, pod, memory_total_bytes, sm_active_mean,
                          tensor_active_mean, dram_active_mean)
SELECT 'bench', d.device_id, '', '2026-03-02'::timestamptz + m * interval '1 minute', r, least(1, r + 0.1),
       (r * 80e9)::bigint, 300 * r + 60, (300 * r + 60) * 60, 4, d.node, d.model, '', '', 85899345920, r * 0.9,
       r * 0.5, r * 0.4
  FROM devices d, generate_series(0, :minutes - 1) m, LATERAL (SELECT random() + m * 0 + length(d.device_id) * 0 AS r) x
 WHERE d.cluster = 'bench' AND d.in_service_to IS NULL;
INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, util_mean, util_max, memory_used_bytes, power_watts,
                          energy_joules, samples, node, model, namespace, pod, memory_total_bytes, sm_active_mean,
                          tensor_active_mean, dram_active_mean)
SELECT 'bench', h.device_id, h.pod_uid, '2026-03-02'::timestamptz + m * interval '1 minute', r, least(1, r + 0.1),
       (r * 80e9)::bigint, NULL, NULL, 4, h.node, h.model, h.namespace, h.pod, 85899345920, r * 0.9, r * 0.5, r * 0.4
  FROM holder h, generate_series(0, :minutes - 1) m, LATERAL (SELECT random() + m * 0 + length(h.device_id) * 0 AS r) x;
\endif

-- A day of hourly rollups: sixty readings per pod, device and hour.
INSERT INTO usage_hourly (cluster, hour, pod_uid, device_id, used_milli)
SELECT 'bench', '2026-03-02'::timestamptz + hr * interval '1 hour', h.pod_uid, h.device_id,
       (SELECT array_agg(((random() * 1000)::int + i * 0 + hr * 0)::smallint) FROM generate_series(1, 60) g(i))
  FROM holder h, generate_series(0, 23) hr;

-- A day of chargeback: a line per workload, model and hour; each namespace's
-- workloads belong to one of 50 teams, so the per-team tables have rows enough to measure.
CREATE TEMP TABLE workload_lines AS
SELECT DISTINCT 'team-' || namespace || '-' || abs(hashtext(workload_name)) % 50 AS team, namespace,
       workload_kind || '/' || workload_name AS workload, model
  FROM holder;
INSERT INTO chargeback_hourly (cluster, hour, team, namespace, workload, model, line_kind, held_milli_seconds,
                               used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,
                               total_cost_micro, no_telemetry)
SELECT 'bench', '2026-03-02'::timestamptz + hr * interval '1 hour', team, namespace, workload, model, 'workload',
       3600000 * 8, (random() * 3600000 * 8)::bigint, 24000000, 1200000, 300000, 25500000, false
  FROM workload_lines, generate_series(0, 23) hr;
INSERT INTO chargeback_hourly_by_team (cluster, hour, team, model, line_kind, held_milli_seconds, used_milli_seconds,
                                       direct_cost_micro, idle_cost_micro, shared_cost_micro, total_cost_micro,
                                       no_telemetry)
SELECT cluster, hour, team, model, line_kind, sum(held_milli_seconds), sum(used_milli_seconds),
       sum(direct_cost_micro), sum(idle_cost_micro), sum(shared_cost_micro), sum(total_cost_micro), bool_or(no_telemetry)
  FROM chargeback_hourly GROUP BY 1, 2, 3, 4, 5;
INSERT INTO chargeback_daily (cluster, day, team, namespace, workload, model, line_kind, held_milli_seconds,
                              used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,
                              total_cost_micro, no_telemetry)
SELECT cluster, date_trunc('day', hour, 'UTC'), team, namespace, workload, model, line_kind, sum(held_milli_seconds),
       sum(used_milli_seconds), sum(direct_cost_micro), sum(idle_cost_micro), sum(shared_cost_micro),
       sum(total_cost_micro), bool_or(no_telemetry)
  FROM chargeback_hourly GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO chargeback_daily_by_team (cluster, day, team, model, line_kind, held_milli_seconds, used_milli_seconds,
                                      direct_cost_micro, idle_cost_micro, shared_cost_micro, total_cost_micro,
                                      no_telemetry)
SELECT cluster, day, team, model, line_kind, sum(held_milli_seconds), sum(used_milli_seconds), sum(direct_cost_micro),
       sum(idle_cost_micro), sum(shared_cost_micro), sum(total_cost_micro), bool_or(no_telemetry)
  FROM chargeback_daily GROUP BY 1, 2, 3, 4, 5;
INSERT INTO chargeback_monthly (cluster, month, team, namespace, workload, model, line_kind, held_milli_seconds,
                                used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,
                                total_cost_micro, no_telemetry)
SELECT cluster, date_trunc('month', day, 'UTC'), team, namespace, workload, model, line_kind, held_milli_seconds,
       used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro, total_cost_micro, no_telemetry
  FROM chargeback_daily;

-- The telemetry ingest's series (eight fields per device and per pod on it) and push progress.
INSERT INTO telemetry_series (cluster, device_id, namespace, pod, field, pod_uid, node, model)
SELECT 'bench', h.device_id, s.namespace, s.pod, f, s.pod_uid, h.node, h.model
  FROM holder h
  CROSS JOIN LATERAL (VALUES ('', '', ''), (h.namespace, h.pod, h.pod_uid)) s(namespace, pod, pod_uid)
  CROSS JOIN unnest(ARRAY['util', 'memory_used', 'memory_total', 'power', 'energy', 'sm_active', 'tensor_active',
                          'dram_active']) f;
INSERT INTO telemetry_push_devices (cluster, device_id, closed_through_ms)
SELECT 'bench', device_id, 1772409600000 FROM holder;
INSERT INTO telemetry_push_counters (cluster, device_id, namespace, pod, field, ts_ms, value)
SELECT 'bench', device_id, '', '', 'energy', 1772409600000, random() * 1e9 FROM holder;

ANALYZE;

-- Per table: rows, bytes with indexes and TOAST, bytes per row, heap tuple bytes per row.
CREATE TEMP TABLE measured (tbl text, rows bigint, total_bytes bigint, tuple_bytes numeric);
DO $$
DECLARE
  t text;
  n bigint;
  tuple numeric;
  bytes bigint;
BEGIN
  FOREACH t IN ARRAY ARRAY['nodes', 'devices', 'pods', 'holds', 'workloads', 'usage_minute',
                           'usage_hourly', 'chargeback_hourly', 'chargeback_hourly_by_team',
                           'chargeback_daily', 'chargeback_daily_by_team', 'chargeback_monthly', 'telemetry_series',
                           'telemetry_push_devices', 'telemetry_push_counters'] LOOP
    EXECUTE format('SELECT count(*), avg(pg_column_size(x.*)) FROM %I x', t) INTO n, tuple;
    -- A partitioned table's rows are in its partitions.
    SELECT coalesce(sum(pg_total_relation_size(relid)), pg_total_relation_size(t::regclass)) INTO bytes
      FROM pg_partition_tree(t::regclass) WHERE relid <> t::regclass;
    INSERT INTO measured VALUES (t, n, bytes, tuple);
  END LOOP;
END $$;
\pset footer off
SELECT tbl AS "table", rows, pg_size_pretty(total_bytes) AS "on disk",
       CASE WHEN rows > 0 THEN round(total_bytes::numeric / rows) END AS "bytes/row (with indexes)",
       round(tuple_bytes) AS "tuple bytes/row"
  FROM measured ORDER BY total_bytes DESC;
