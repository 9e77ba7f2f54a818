-- What writing one minute again costs (storage_per_row.sh, at its end, once
-- the minutes are at rest): 1,000 device minutes drawn over the measured
-- ones, each written by one statement as the telemetry writer's upsert
-- writes a late sample, after a CHECKPOINT (so each pays the first change of
-- a page after it in full):
--   at rest: the minute is new to usage_minute (inserted, its triggers
--     clearing its bit at rest, migration 0037);
--   usage_minute (as before 0037): the same minutes written again, now rows
--     of usage_minute, updated in place;
--   moving again: the hours those minutes fall in moved to rest again (each
--     rewrites the hour rows of its devices), per minute.
-- Prints the WAL bytes and the time a minute.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE TEMP TABLE picked AS
SELECT device_id, minute, node, model, row_number() OVER () AS i
  FROM (SELECT device_id, minute, node, model FROM bench_minutes_written WHERE pod_uid = ''
         ORDER BY random() LIMIT 1000) u;
CREATE TEMP TABLE written (layout text, wal_bytes numeric, ms numeric);
CREATE FUNCTION pg_temp.write_picked_again(layout text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lsn pg_lsn := pg_current_wal_insert_lsn();
  began timestamptz := clock_timestamp();
  p record;
BEGIN
  FOR p IN SELECT * FROM picked ORDER BY i LOOP
    INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, node, model, util_mean, util_max, samples)
    VALUES ('bench', p.device_id, '', p.minute, p.node, p.model, 0.5, 0.5, 4)
    ON CONFLICT (cluster, device_id, pod_uid, minute) DO UPDATE SET util_mean = EXCLUDED.util_mean,
      util_max = EXCLUDED.util_max, samples = EXCLUDED.samples;
  END LOOP;
  INSERT INTO written VALUES (layout, pg_wal_lsn_diff(pg_current_wal_insert_lsn(), lsn),
                              extract(epoch FROM clock_timestamp() - began) * 1000);
END $$;

CHECKPOINT;
SELECT pg_temp.write_picked_again('at rest: a minute written again') \gset
CHECKPOINT;
SELECT pg_temp.write_picked_again('usage_minute (as before 0037): a row updated') \gset
CHECKPOINT;
DO $$
DECLARE
  lsn pg_lsn := pg_current_wal_insert_lsn();
  began timestamptz := clock_timestamp();
BEGIN
  PERFORM fleetcap_compact_usage_hour(cluster, hour) FROM usage_hours_to_compact ORDER BY hour;
  INSERT INTO written VALUES ('at rest: moving their hours again', pg_wal_lsn_diff(pg_current_wal_insert_lsn(), lsn),
                              extract(epoch FROM clock_timestamp() - began) * 1000);
END $$;

\pset footer off
SELECT layout, round(wal_bytes / (SELECT count(*) FROM picked)) AS "WAL bytes a minute written again",
       round(ms / (SELECT count(*) FROM picked), 3) AS "ms a minute"
  FROM written;
