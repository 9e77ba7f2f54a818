-- The minutes at rest as floats (storage_at_rest.sql) converted to
-- decimals as a store migrated to 0043 converts them
-- (fleetcap_convert_usage_hour, an hour a call; timed), the table rewritten
-- (VACUUM FULL, as for the floats), checked bit for bit against the rows
-- written again and measured beside the other layouts.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SELECT count(*) AS rows_in_usage_minute FROM bench_minutes_written \gset

SELECT clock_timestamp() AS convert_began \gset
SELECT sum(fleetcap_convert_usage_hour(cluster, hour)) AS rows_converted
  FROM (SELECT DISTINCT cluster, hour FROM usage_series_hour ORDER BY hour DESC) h \gset
SELECT extract(epoch FROM clock_timestamp() - :'convert_began') AS convert_s \gset
\echo
\echo 'converted to decimals: ' :rows_converted ' hour rows in ' :convert_s ' s'
VACUUM FULL ANALYZE usage_series_hour;
CHECKPOINT;
\ir storage_at_rest_check.sql
INSERT INTO bench_layouts
SELECT 'at rest, decimals (after: migration 0043)',
       pg_total_relation_size('usage_series')
       + (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('usage_series_hour')
           WHERE relid <> 'usage_series_hour'::regclass);
\ir storage_at_rest_sizes.sql
