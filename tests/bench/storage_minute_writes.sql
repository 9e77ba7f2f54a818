-- What writing one minute again costs in each layout (storage_per_row.sh, at
-- its end: it changes the measured rows): 1,000 device minutes drawn over the
-- measured ones, each written by one statement as a late sample would write
-- it, after a CHECKPOINT (so both pay the first change of a page after it in
-- full). usage_minute: the row updated in place (the telemetry writer's
-- upsert, its triggers included). usage_series_hour: the minute's slot set in
-- its hour's row, which PostgreSQL writes anew, arrays and all. Prints the
-- WAL bytes a minute and the time of the 1,000.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE TEMP TABLE picked AS
SELECT s.series_id, u.device_id, u.minute, date_trunc('hour', u.minute, 'UTC') AS hour,
       extract(minute FROM u.minute AT TIME ZONE 'UTC')::int + 1 AS slot, row_number() OVER () AS i
  FROM (SELECT device_id, minute FROM usage_minute WHERE pod_uid = '' ORDER BY random() LIMIT 1000) u
  JOIN usage_series s ON s.cluster = 'bench' AND s.device_id = u.device_id AND s.pod_uid = '';
CREATE TEMP TABLE written (layout text, wal_bytes numeric, ms numeric);

CHECKPOINT;
DO $$
DECLARE
  lsn pg_lsn := pg_current_wal_insert_lsn();
  began timestamptz := clock_timestamp();
  p record;
BEGIN
  FOR p IN SELECT * FROM picked ORDER BY i LOOP
    UPDATE usage_minute SET util_mean = 0.5, util_max = 0.5
     WHERE cluster = 'bench' AND device_id = p.device_id AND pod_uid = '' AND minute = p.minute;
  END LOOP;
  INSERT INTO written VALUES ('usage_minute (today)', pg_wal_lsn_diff(pg_current_wal_insert_lsn(), lsn),
                              extract(epoch FROM clock_timestamp() - began) * 1000);
END $$;

CHECKPOINT;
DO $$
DECLARE
  lsn pg_lsn := pg_current_wal_insert_lsn();
  began timestamptz := clock_timestamp();
  p record;
BEGIN
  FOR p IN SELECT * FROM picked ORDER BY i LOOP
    UPDATE usage_series_hour SET util_mean[p.slot] = 0.5, util_max[p.slot] = 0.5
     WHERE series_id = p.series_id AND hour = p.hour;
  END LOOP;
  INSERT INTO written VALUES ('usage_series_hour', pg_wal_lsn_diff(pg_current_wal_insert_lsn(), lsn),
                              extract(epoch FROM clock_timestamp() - began) * 1000);
END $$;

\pset footer off
SELECT layout, round(wal_bytes / (SELECT count(*) FROM picked)) AS "WAL bytes a minute written again",
       round(ms / (SELECT count(*) FROM picked), 3) AS "ms a minute"
  FROM written;
