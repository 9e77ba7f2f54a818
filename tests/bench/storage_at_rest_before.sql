-- Before the minutes are moved to rest (storage_per_row.sh): usage_minute's
-- bytes on disk with its indexes, and a copy of its rows for the check after.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
VACUUM ANALYZE usage_minute;
CHECKPOINT;
CREATE TABLE bench_layouts AS
SELECT 'usage_minute (as written)'::text AS layout,
       (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('usage_minute')
         WHERE relid <> 'usage_minute'::regclass) AS bytes;
CREATE UNLOGGED TABLE bench_minutes_written AS SELECT * FROM usage_minute;
