-- The candidate layout of the per-minute usage, measured beside today's
-- usage_minute in the same run (docs/scaling.md, "Usage by series and hour"):
-- built here from usage_minute's own rows, as a background conversion of a
-- day's partition would build it, then checked value for value against them
-- and measured the same way (bytes on disk with indexes and TOAST).
--
-- - usage_series: a series is what a minute row repeats as text today
--   (cluster, device, pod, node, model, namespace, pod name), once, under an
--   integer key.
-- - usage_series_hour: one row per series and UTC hour. `minutes` has bit i
--   set when minute i of the hour has a row; each field is an array of the
--   hour's 60 minutes (NULL where no row or no reading). A pod's hour whose
--   every minute carries the very bits of its device's minute (one pod on a
--   whole GPU, as dcgm-exporter reports it) keeps no arrays of its own:
--   `values_series` names the device's series whose row holds them.
--   The arrays are stored MAIN (compressed inline with lz4, moved out of line
--   only past a page) and compressed from 128 bytes on (toast_tuple_target),
--   so that an hour of a few fields is compressed too.
\set ON_ERROR_STOP on
SET client_min_messages = warning;

CREATE TABLE usage_series (
  series_id  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  cluster    text NOT NULL,
  device_id  text NOT NULL,
  pod_uid    text NOT NULL,
  node       text NOT NULL,
  model      text NOT NULL,
  namespace  text NOT NULL,
  pod        text NOT NULL,
  UNIQUE (cluster, device_id, pod_uid, node, model, namespace, pod)
);
CREATE INDEX usage_series_by_node ON usage_series (cluster, node) WHERE pod_uid = '';

CREATE TABLE usage_series_hour (
  series_id           integer NOT NULL,
  hour                timestamptz NOT NULL,
  minutes             bigint NOT NULL CHECK (minutes > 0 AND minutes < (1::bigint << 60)),
  values_series       integer,
  samples             integer[],
  util_mean           double precision[],
  util_max            double precision[],
  memory_used_bytes   bigint[],
  power_watts         double precision[],
  energy_joules       double precision[],
  memory_total_bytes  bigint[],
  sm_active_mean      double precision[],
  tensor_active_mean  double precision[],
  dram_active_mean    double precision[],
  PRIMARY KEY (series_id, hour)
) WITH (toast_tuple_target = 128);
DO $$
DECLARE
  col text;
BEGIN
  FOREACH col IN ARRAY ARRAY['samples', 'util_mean', 'util_max', 'memory_used_bytes', 'power_watts', 'energy_joules',
                             'memory_total_bytes', 'sm_active_mean', 'tensor_active_mean', 'dram_active_mean'] LOOP
    EXECUTE format('ALTER TABLE usage_series_hour ALTER %I SET STORAGE MAIN, ALTER %I SET COMPRESSION lz4', col, col);
  END LOOP;
END $$;

-- The conversion: series first, then each (series, hour) with its 60 slots.
INSERT INTO usage_series (cluster, device_id, pod_uid, node, model, namespace, pod)
SELECT DISTINCT cluster, device_id, pod_uid, node, model, namespace, pod FROM usage_minute;

CREATE TEMP TABLE slots AS
SELECT s.series_id, s.cluster, s.device_id, s.pod_uid, date_trunc('hour', u.minute, 'UTC') AS hour,
       extract(minute FROM u.minute AT TIME ZONE 'UTC')::int AS slot, u.samples, u.util_mean, u.util_max,
       u.memory_used_bytes, u.power_watts, u.energy_joules, u.memory_total_bytes, u.sm_active_mean,
       u.tensor_active_mean, u.dram_active_mean
  FROM usage_minute u
  JOIN usage_series s USING (cluster, device_id, pod_uid, node, model, namespace, pod);
CREATE INDEX ON slots (series_id, hour, slot);
ANALYZE slots;

-- A pod's minute whose every field has the very bits of its device's same
-- minute (float8send: 0 and -0, and NaNs, told apart).
CREATE TEMP TABLE pod_hours_of_device AS
SELECT p.series_id, p.hour, min(d.series_id) AS values_series
  FROM slots p
  JOIN slots d ON d.cluster = p.cluster AND d.device_id = p.device_id AND d.pod_uid = '' AND d.hour = p.hour
              AND d.slot = p.slot
 WHERE p.pod_uid <> ''
 GROUP BY p.series_id, p.hour
HAVING count(DISTINCT d.series_id) = 1
   AND bool_and(p.samples = d.samples
       AND float8send(p.util_mean) IS NOT DISTINCT FROM float8send(d.util_mean)
       AND float8send(p.util_max) IS NOT DISTINCT FROM float8send(d.util_max)
       AND p.memory_used_bytes IS NOT DISTINCT FROM d.memory_used_bytes
       AND float8send(p.power_watts) IS NOT DISTINCT FROM float8send(d.power_watts)
       AND float8send(p.energy_joules) IS NOT DISTINCT FROM float8send(d.energy_joules)
       AND p.memory_total_bytes IS NOT DISTINCT FROM d.memory_total_bytes
       AND float8send(p.sm_active_mean) IS NOT DISTINCT FROM float8send(d.sm_active_mean)
       AND float8send(p.tensor_active_mean) IS NOT DISTINCT FROM float8send(d.tensor_active_mean)
       AND float8send(p.dram_active_mean) IS NOT DISTINCT FROM float8send(d.dram_active_mean))
   AND count(*) = (SELECT count(*) FROM slots q WHERE q.series_id = p.series_id AND q.hour = p.hour);

INSERT INTO usage_series_hour
SELECT k.series_id, k.hour, k.minutes, o.values_series,
       CASE WHEN o.values_series IS NULL THEN a.samples END, CASE WHEN o.values_series IS NULL THEN a.util_mean END,
       CASE WHEN o.values_series IS NULL THEN a.util_max END,
       CASE WHEN o.values_series IS NULL THEN a.memory_used_bytes END,
       CASE WHEN o.values_series IS NULL THEN a.power_watts END,
       CASE WHEN o.values_series IS NULL THEN a.energy_joules END,
       CASE WHEN o.values_series IS NULL THEN a.memory_total_bytes END,
       CASE WHEN o.values_series IS NULL THEN a.sm_active_mean END,
       CASE WHEN o.values_series IS NULL THEN a.tensor_active_mean END,
       CASE WHEN o.values_series IS NULL THEN a.dram_active_mean END
  FROM (SELECT series_id, hour, sum(1::bigint << slot) AS minutes FROM slots GROUP BY 1, 2) k
  LEFT JOIN pod_hours_of_device o USING (series_id, hour)
  CROSS JOIN LATERAL (
    SELECT array_agg(s.samples ORDER BY g.i) AS samples, array_agg(s.util_mean ORDER BY g.i) AS util_mean,
           array_agg(s.util_max ORDER BY g.i) AS util_max, array_agg(s.memory_used_bytes ORDER BY g.i) AS memory_used_bytes,
           array_agg(s.power_watts ORDER BY g.i) AS power_watts, array_agg(s.energy_joules ORDER BY g.i) AS energy_joules,
           array_agg(s.memory_total_bytes ORDER BY g.i) AS memory_total_bytes,
           array_agg(s.sm_active_mean ORDER BY g.i) AS sm_active_mean,
           array_agg(s.tensor_active_mean ORDER BY g.i) AS tensor_active_mean,
           array_agg(s.dram_active_mean ORDER BY g.i) AS dram_active_mean
      FROM generate_series(0, 59) g(i)
      LEFT JOIN slots s ON s.series_id = k.series_id AND s.hour = k.hour AND s.slot = g.i) a
 ORDER BY k.series_id, k.hour;

-- The minutes as the readers would see them: a row per set bit, its values
-- from the row named by values_series (or its own).
CREATE VIEW usage_minute_of_series AS
SELECT s.cluster, s.device_id, s.pod_uid, h.hour + (m.slot - 1) * interval '1 minute' AS minute, m.util_mean,
       m.util_max, m.memory_used_bytes, m.power_watts, m.energy_joules, m.samples, s.node, s.model, s.namespace, s.pod,
       m.memory_total_bytes, m.sm_active_mean, m.tensor_active_mean, m.dram_active_mean
  FROM usage_series_hour h
  JOIN usage_series s ON s.series_id = h.series_id
  JOIN usage_series_hour v ON v.series_id = coalesce(h.values_series, h.series_id) AND v.hour = h.hour
  CROSS JOIN LATERAL unnest(v.util_mean, v.util_max, v.memory_used_bytes, v.power_watts, v.energy_joules, v.samples,
                            v.memory_total_bytes, v.sm_active_mean, v.tensor_active_mean, v.dram_active_mean)
        WITH ORDINALITY m(util_mean, util_max, memory_used_bytes, power_watts, energy_joules, samples,
                          memory_total_bytes, sm_active_mean, tensor_active_mean, dram_active_mean, slot)
 WHERE h.minutes & (1::bigint << (m.slot::int - 1)) <> 0;

VACUUM ANALYZE usage_series, usage_series_hour;

-- Every row read back, bit for bit, and no row more.
SELECT count(*) AS rows_in_usage_minute FROM usage_minute \gset
SELECT count(*) AS rows_differing FROM (
  SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
         float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
         float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
    FROM usage_minute
  EXCEPT ALL
  SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
         float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
         float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
    FROM usage_minute_of_series) d \gset
SELECT count(*) AS rows_read_back FROM usage_minute_of_series \gset
SELECT :rows_differing = 0 AND :rows_read_back = :rows_in_usage_minute AS identical \gset
\echo
\echo 'usage by series and hour: ' :rows_read_back ' rows read back for ' :rows_in_usage_minute ' in usage_minute, ' :rows_differing ' differing'
\if :identical
\else
  \echo 'usage by series and hour: the rows read back are not usage_minute''s'
  SELECT 1 / 0;
\endif

-- Side by side: bytes per minute row and per device-minute (a device's own
-- row and its pod's), each layout with its indexes and TOAST.
SELECT count(*) AS device_minutes FROM usage_minute WHERE pod_uid = '' \gset
\pset footer off
SELECT layout, pg_size_pretty(bytes) AS "on disk", round(bytes::numeric / :rows_in_usage_minute, 1) AS "bytes/minute row",
       round(bytes::numeric / nullif(:device_minutes, 0), 1) AS "bytes/device-minute"
  FROM (SELECT 'usage_minute (today)' AS layout,
               (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('usage_minute') WHERE relid <> 'usage_minute'::regclass) AS bytes
        UNION ALL
        SELECT 'usage_series + usage_series_hour', pg_total_relation_size('usage_series') + pg_total_relation_size('usage_series_hour')
        UNION ALL
        SELECT '  of which usage_series', pg_total_relation_size('usage_series')) t;
SELECT count(*) AS "hour rows", count(*) FILTER (WHERE values_series IS NOT NULL) AS "pod hours kept as the device's",
       round(avg(pg_column_size(h.*))) AS "tuple bytes/hour row"
  FROM usage_series_hour h;
-- Where the bytes of an hour row go: each array as stored (compressed), in
-- the rows with arrays of their own; and the whole row where a pod's hour is
-- its device's.
SELECT round(avg(pg_column_size(samples))) AS samples, round(avg(pg_column_size(util_mean))) AS util_mean,
       round(avg(pg_column_size(util_max))) AS util_max, round(avg(pg_column_size(memory_used_bytes))) AS memory_used,
       round(avg(pg_column_size(power_watts))) AS power, round(avg(pg_column_size(energy_joules))) AS energy,
       round(avg(pg_column_size(memory_total_bytes))) AS memory_total, round(avg(pg_column_size(sm_active_mean))) AS sm,
       round(avg(pg_column_size(tensor_active_mean))) AS tensor, round(avg(pg_column_size(dram_active_mean))) AS dram
  FROM usage_series_hour WHERE values_series IS NULL;
SELECT round(avg(pg_column_size(h.*))) AS "tuple bytes of a pod hour kept as the device's"
  FROM usage_series_hour h WHERE values_series IS NOT NULL;
