-- The minutes moved to rest as the optimizer moves them (storage_per_row.sh;
-- migration 0037, fleetcap_compact_usage_hour, an hour a call), then checked
-- value for value against the rows written (bench_minutes_written,
-- storage_at_rest_before.sql) and measured the same way: bytes on disk with
-- indexes and TOAST, beside usage_minute's before the move.
\set ON_ERROR_STOP on
SET client_min_messages = warning;

SELECT count(*) AS rows_in_usage_minute FROM usage_minute \gset
SELECT clock_timestamp() AS move_began \gset
SELECT sum(fleetcap_compact_usage_hour(cluster, hour)) AS rows_moved
  FROM (SELECT cluster, hour FROM usage_hours_to_compact ORDER BY hour DESC) due \gset
SELECT extract(epoch FROM clock_timestamp() - :'move_began') AS move_s \gset
\echo
\echo 'moved to rest: ' :rows_moved ' of ' :rows_in_usage_minute ' minute rows in ' :move_s ' s'
SELECT :rows_moved = :rows_in_usage_minute AND (SELECT count(*) FROM usage_minute) = 0 AS all_moved \gset
\if :all_moved
\else
  \echo 'storage at rest: not every minute row was moved'
  SELECT 1 / 0;
\endif
VACUUM ANALYZE usage_series, usage_series_hour;
CHECKPOINT;

-- Every row read back, bit for bit (float8send: 0 and -0, and NaNs, told
-- apart), and no row more.
SELECT count(*) AS rows_differing FROM (
  (SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM bench_minutes_written
   EXCEPT ALL
   SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM fleetcap_usage_minutes('bench', '-infinity', 'infinity'))
  UNION ALL
  (SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM fleetcap_usage_minutes('bench', '-infinity', 'infinity')
   EXCEPT ALL
   SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM bench_minutes_written)) d \gset
\echo 'at rest: ' :rows_differing ' rows differing from the ' :rows_in_usage_minute ' written'
\if :rows_differing
  \echo 'storage at rest: the rows read back are not the rows written'
  SELECT 1 / 0;
\endif

-- Side by side: bytes per minute row and per device-minute (a device's own
-- row and its pod's), each layout with its indexes and TOAST.
INSERT INTO bench_layouts
SELECT 'usage_series + usage_series_hour (at rest)',
       pg_total_relation_size('usage_series')
       + (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('usage_series_hour')
           WHERE relid <> 'usage_series_hour'::regclass)
UNION ALL
SELECT '  of which usage_series', pg_total_relation_size('usage_series');
SELECT count(*) AS device_minutes FROM bench_minutes_written WHERE pod_uid = '' \gset
\pset footer off
SELECT layout, pg_size_pretty(bytes) AS "on disk",
       round(bytes::numeric / :rows_in_usage_minute, 1) AS "bytes/minute row",
       round(bytes::numeric / nullif(:device_minutes, 0), 1) AS "bytes/device-minute"
  FROM bench_layouts;
SELECT count(*) AS "hour rows", count(*) FILTER (WHERE values_series IS NOT NULL) AS "pod hours kept as the device's",
       round(avg(pg_column_size(h.*))) AS "tuple bytes/hour row"
  FROM usage_series_hour h;
-- Where the bytes of an hour row go: each array as stored (compressed), in
-- the rows with arrays of their own.
SELECT round(avg(pg_column_size(samples))) AS samples, round(avg(pg_column_size(util_mean))) AS util_mean,
       round(avg(pg_column_size(util_max))) AS util_max, round(avg(pg_column_size(memory_used_bytes))) AS memory_used,
       round(avg(pg_column_size(power_watts))) AS power, round(avg(pg_column_size(energy_joules))) AS energy,
       round(avg(pg_column_size(memory_total_bytes))) AS memory_total, round(avg(pg_column_size(sm_active_mean))) AS sm,
       round(avg(pg_column_size(tensor_active_mean))) AS tensor, round(avg(pg_column_size(dram_active_mean))) AS dram
  FROM usage_series_hour WHERE values_series IS NULL;
