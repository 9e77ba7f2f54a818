-- The minutes moved to rest as the optimizer moves them (storage_per_row.sh;
-- migration 0037, fleetcap_compact_usage_hour, an hour a call, the oldest
-- first as each becomes due; its floats in decimals where they fit,
-- migration 0043) and measured as a live store keeps them, before and after
-- the day's indexes are rebuilt (migration 0046), then checked value for value
-- against the rows written (bench_minutes_written,
-- storage_at_rest_before.sql). Then the same rows at rest as the store kept
-- them before migration 0043, every float field's decimals decoded back to
-- its array of floats (and the table rewritten, VACUUM FULL), checked again
-- and measured the same way: bytes on disk with indexes and TOAST, beside
-- usage_minute's before the move. storage_at_rest_decimals.sql converts them
-- back as a store migrated to 0043 does.
\set ON_ERROR_STOP on
SET client_min_messages = warning;

SELECT count(*) AS rows_in_usage_minute FROM usage_minute \gset
SELECT clock_timestamp() AS move_began \gset
SELECT sum(fleetcap_compact_usage_hour(cluster, hour)) AS rows_moved
  FROM (SELECT cluster, hour FROM usage_hours_to_compact ORDER BY hour, cluster) due \gset
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
-- What a live store keeps: the table as the moves left it, then the day's
-- indexes rebuilt as PgUsageCompaction rebuilds them once the day ended
-- (migration 0046; the bench's day ended long ago).
INSERT INTO bench_layouts
SELECT 'at rest, live: as the moves leave it',
       pg_total_relation_size('usage_series')
       + (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('usage_series_hour')
           WHERE relid <> 'usage_series_hour'::regclass);
SELECT format('REINDEX TABLE CONCURRENTLY %I', partition_name) FROM fleetcap_usage_day_to_reindex()
 WHERE day IS NOT NULL \gexec
DELETE FROM usage_series_days_to_reindex;
CHECKPOINT;
INSERT INTO bench_layouts
SELECT 'at rest, live: its ended day''s indexes rebuilt',
       pg_total_relation_size('usage_series')
       + (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('usage_series_hour')
           WHERE relid <> 'usage_series_hour'::regclass);

\ir storage_at_rest_check.sql

-- Before: the floats as the store kept them at rest before migration 0043.
UPDATE usage_series_hour
   SET util_mean = coalesce(util_mean, (SELECT array_agg(fleetcap_decimal(d.digit, util_mean_form) ORDER BY d.slot)
                                FROM unnest(util_mean_digits) WITH ORDINALITY d(digit, slot))),
       util_mean_form = NULL, util_mean_digits = NULL,
       util_max = coalesce(util_max,
         (SELECT array_agg(fleetcap_decimal(d.digit, util_max_form) ORDER BY d.slot)
            FROM unnest(util_max_digits) WITH ORDINALITY d(digit, slot))),
       util_max_form = NULL, util_max_digits = NULL,
       power_watts = coalesce(power_watts,
         (SELECT array_agg(fleetcap_decimal(d.digit, power_watts_form) ORDER BY d.slot)
            FROM unnest(power_watts_digits) WITH ORDINALITY d(digit, slot))),
       power_watts_form = NULL, power_watts_digits = NULL,
       energy_joules = coalesce(energy_joules,
         (SELECT array_agg(fleetcap_decimal(d.digit, energy_joules_form) ORDER BY d.slot)
            FROM unnest(energy_joules_digits) WITH ORDINALITY d(digit, slot))),
       energy_joules_form = NULL, energy_joules_digits = NULL,
       sm_active_mean = coalesce(sm_active_mean,
         (SELECT array_agg(fleetcap_decimal(d.digit, sm_active_mean_form) ORDER BY d.slot)
            FROM unnest(sm_active_mean_digits) WITH ORDINALITY d(digit, slot))),
       sm_active_mean_form = NULL, sm_active_mean_digits = NULL,
       tensor_active_mean = coalesce(tensor_active_mean,
         (SELECT array_agg(fleetcap_decimal(d.digit, tensor_active_mean_form) ORDER BY d.slot)
            FROM unnest(tensor_active_mean_digits) WITH ORDINALITY d(digit, slot))),
       tensor_active_mean_form = NULL, tensor_active_mean_digits = NULL,
       dram_active_mean = coalesce(dram_active_mean,
         (SELECT array_agg(fleetcap_decimal(d.digit, dram_active_mean_form) ORDER BY d.slot)
            FROM unnest(dram_active_mean_digits) WITH ORDINALITY d(digit, slot))),
       dram_active_mean_form = NULL, dram_active_mean_digits = NULL;
VACUUM FULL ANALYZE usage_series_hour;
CHECKPOINT;
\ir storage_at_rest_check.sql
INSERT INTO bench_layouts
SELECT 'at rest, floats (before: migration 0037)',
       pg_total_relation_size('usage_series')
       + (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('usage_series_hour')
           WHERE relid <> 'usage_series_hour'::regclass);
\ir storage_at_rest_sizes.sql
