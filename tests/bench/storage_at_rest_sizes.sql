-- Side by side (storage_at_rest.sql, storage_at_rest_decimals.sql): bytes
-- per minute row and per device-minute (a device's own row and its pod's),
-- each layout with its indexes and TOAST; then where the bytes of an hour
-- row go, each array as stored (compressed), in the rows with arrays of
-- their own.
SELECT count(*) AS device_minutes FROM bench_minutes_written WHERE pod_uid = '' \gset
\pset footer off
SELECT layout, pg_size_pretty(bytes) AS "on disk",
       round(bytes::numeric / :rows_in_usage_minute, 1) AS "bytes/minute row",
       round(bytes::numeric / nullif(:device_minutes, 0), 1) AS "bytes/device-minute"
  FROM bench_layouts;
SELECT count(*) AS "hour rows", count(*) FILTER (WHERE values_series IS NOT NULL) AS "pod hours kept as the device's",
       round(avg(pg_column_size(h.*))) AS "tuple bytes/hour row"
  FROM usage_series_hour h;
SELECT round(avg(pg_column_size(samples))) AS samples,
       round(avg(coalesce(pg_column_size(util_mean), pg_column_size(util_mean_digits) + 8))) AS util_mean,
       round(avg(coalesce(pg_column_size(util_max), pg_column_size(util_max_digits) + 8))) AS util_max,
       round(avg(pg_column_size(memory_used_bytes))) AS memory_used,
       round(avg(coalesce(pg_column_size(power_watts), pg_column_size(power_watts_digits) + 8))) AS power,
       round(avg(coalesce(pg_column_size(energy_joules), pg_column_size(energy_joules_digits) + 8))) AS energy,
       round(avg(pg_column_size(memory_total_bytes))) AS memory_total,
       round(avg(coalesce(pg_column_size(sm_active_mean), pg_column_size(sm_active_mean_digits) + 8))) AS sm,
       round(avg(coalesce(pg_column_size(tensor_active_mean), pg_column_size(tensor_active_mean_digits) + 8))) AS tensor,
       round(avg(coalesce(pg_column_size(dram_active_mean), pg_column_size(dram_active_mean_digits) + 8))) AS dram
  FROM usage_series_hour WHERE values_series IS NULL;
-- How many of the float fields' hours are kept in decimals.
SELECT round(100.0 * count(util_mean_form) / nullif(count(util_mean_form) + count(util_mean), 0), 1) AS "util_mean %",
       round(100.0 * count(power_watts_form) / nullif(count(power_watts_form) + count(power_watts), 0), 1) AS "power %",
       round(100.0 * count(sm_active_mean_form) / nullif(count(sm_active_mean_form) + count(sm_active_mean), 0), 1)
         AS "sm %"
  FROM usage_series_hour WHERE values_series IS NULL;
