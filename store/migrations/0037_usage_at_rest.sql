-- The per-minute usage at rest in a tenth of the bytes (docs/scaling.md,
-- "Usage by series and hour"). A row of usage_minute repeats its key as text
-- (cluster, a device id of ~40 characters, a pod uid of 36, node, model,
-- namespace, pod) in the heap and again in its primary key: 339 bytes a
-- minute row with its indexes. Minutes now go to rest an hour at a time:
--   usage_series: what a minute row repeats, once, under an integer key;
--   usage_series_hour: a row per series and UTC hour, the minutes present as
--   a bitmask (bit i: minute i of the hour) and each field an array of the
--   hour's 60 minutes (NULL where no minute or no reading), stored MAIN with
--   lz4 (compressed in the heap); a pod's hour whose minutes are bit for bit
--   its device's (one pod on a whole GPU) keeps only the device's series id,
--   `values_series`. Daily partitions, kept and dropped with usage_minute's.
-- usage_minute stays where minutes are written (COPY, upserts, the rollup
-- triggers, unchanged) and read while recent; every hour written is due to
-- be moved (usage_hours_to_compact) and fleetcap_compact_usage_hour moves
-- it once it ended two hours ago (PgUsageCompaction, run by the optimizer
-- after its passes), and a day whose every hour moved gives its pages back
-- (fleetcap_release_moved_usage_day). Readers read both through fleetcap_usage_minutes. The
-- hours already in usage_minute are marked due here, from the rollups that
-- list every hour with minutes, and moved in the background, newest first,
-- read from both meanwhile: the migration itself moves nothing.
CREATE TABLE usage_series (
  cluster    text NOT NULL,
  series_id  integer GENERATED ALWAYS AS IDENTITY,
  device_id  text NOT NULL,
  pod_uid    text NOT NULL,
  node       text NOT NULL,
  model      text NOT NULL,
  namespace  text NOT NULL,
  pod        text NOT NULL,
  PRIMARY KEY (cluster, series_id),
  UNIQUE (cluster, device_id, pod_uid, node, model, namespace, pod)
);

CREATE TABLE usage_series_hour (
  cluster             text NOT NULL,
  hour                timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  series_id           integer NOT NULL,
  minutes             bigint NOT NULL CHECK (minutes >= 0 AND minutes < (1::bigint << 60)),
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
  PRIMARY KEY (cluster, hour, series_id)
) PARTITION BY RANGE (hour);
ALTER TABLE usage_series_hour
  ALTER samples SET STORAGE MAIN, ALTER samples SET COMPRESSION lz4,
  ALTER util_mean SET STORAGE MAIN, ALTER util_mean SET COMPRESSION lz4,
  ALTER util_max SET STORAGE MAIN, ALTER util_max SET COMPRESSION lz4,
  ALTER memory_used_bytes SET STORAGE MAIN, ALTER memory_used_bytes SET COMPRESSION lz4,
  ALTER power_watts SET STORAGE MAIN, ALTER power_watts SET COMPRESSION lz4,
  ALTER energy_joules SET STORAGE MAIN, ALTER energy_joules SET COMPRESSION lz4,
  ALTER memory_total_bytes SET STORAGE MAIN, ALTER memory_total_bytes SET COMPRESSION lz4,
  ALTER sm_active_mean SET STORAGE MAIN, ALTER sm_active_mean SET COMPRESSION lz4,
  ALTER tensor_active_mean SET STORAGE MAIN, ALTER tensor_active_mean SET COMPRESSION lz4,
  ALTER dram_active_mean SET STORAGE MAIN, ALTER dram_active_mean SET COMPRESSION lz4;

-- A node's series, and a series' hours (the node's day per minute reads a
-- few series over many hours; a rollup reads every series of one hour, by
-- the primary key).
CREATE INDEX usage_series_by_node ON usage_series (cluster, node);
CREATE INDEX usage_series_hour_by_series ON usage_series_hour (cluster, series_id, hour);

CREATE TABLE usage_hours_to_compact (
  cluster text NOT NULL,
  hour    timestamptz NOT NULL,
  PRIMARY KEY (cluster, hour)
);
-- The due hours of every cluster, oldest or newest, and of a day.
CREATE INDEX usage_hours_to_compact_by_hour ON usage_hours_to_compact (hour);

-- The minutes of a cluster in [from_time, to_time), rows of usage_minute's
-- shape, wherever they are kept: the recent ones (and late ones not yet
-- moved) in usage_minute, the others at rest in usage_series_hour (migration
-- 0037), each minute in exactly one of the two. Every reader of the minutes
-- reads them through here. A set-returning SQL function with one SELECT,
-- STABLE: PostgreSQL inlines it into the calling statement, so the window
-- prunes both tables' partitions and the caller's conditions (a node, pod
-- rows only) reach both branches.
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes(cluster_name text, from_time timestamptz, to_time timestamptz)
RETURNS SETOF usage_minute LANGUAGE sql STABLE AS $$
  SELECT u.* FROM usage_minute u
   WHERE u.cluster = cluster_name AND u.minute >= from_time AND u.minute < to_time
  UNION ALL
  SELECT h.cluster, s.device_id, s.pod_uid, h.hour + (m.slot - 1) * interval '1 minute', m.util_mean, m.util_max,
         m.memory_used_bytes, m.power_watts, m.energy_joules, m.samples, s.node, s.model, s.namespace, s.pod,
         m.memory_total_bytes, m.sm_active_mean, m.tensor_active_mean, m.dram_active_mean
    FROM usage_series_hour h
    JOIN usage_series s ON s.cluster = h.cluster AND s.series_id = h.series_id
    LEFT JOIN usage_series_hour v
      ON h.values_series IS NOT NULL AND v.cluster = h.cluster AND v.hour = h.hour AND v.series_id = h.values_series
     AND v.hour >= date_trunc('hour', from_time, 'UTC') AND v.hour < to_time
   CROSS JOIN LATERAL unnest(
           CASE WHEN h.values_series IS NULL THEN h.util_mean ELSE v.util_mean END,
           CASE WHEN h.values_series IS NULL THEN h.util_max ELSE v.util_max END,
           CASE WHEN h.values_series IS NULL THEN h.memory_used_bytes ELSE v.memory_used_bytes END,
           CASE WHEN h.values_series IS NULL THEN h.power_watts ELSE v.power_watts END,
           CASE WHEN h.values_series IS NULL THEN h.energy_joules ELSE v.energy_joules END,
           CASE WHEN h.values_series IS NULL THEN h.samples ELSE v.samples END,
           CASE WHEN h.values_series IS NULL THEN h.memory_total_bytes ELSE v.memory_total_bytes END,
           CASE WHEN h.values_series IS NULL THEN h.sm_active_mean ELSE v.sm_active_mean END,
           CASE WHEN h.values_series IS NULL THEN h.tensor_active_mean ELSE v.tensor_active_mean END,
           CASE WHEN h.values_series IS NULL THEN h.dram_active_mean ELSE v.dram_active_mean END)
         WITH ORDINALITY m(util_mean, util_max, memory_used_bytes, power_watts, energy_joules, samples,
                           memory_total_bytes, sm_active_mean, tensor_active_mean, dram_active_mean, slot)
   WHERE h.cluster = cluster_name AND h.hour >= date_trunc('hour', from_time, 'UTC') AND h.hour < to_time
     AND h.minutes & (1::bigint << (m.slot::integer - 1)) <> 0
     -- Each minute's instant only in the hours the window cuts.
     AND (h.hour >= from_time OR h.hour + (m.slot - 1) * interval '1 minute' >= from_time)
     AND (h.hour <= to_time - interval '1 hour' OR h.hour + (m.slot - 1) * interval '1 minute' < to_time)
$$;

-- Telemetry may carry minutes from any day (a backfill, a replay): the
-- writer creates the day's partition on demand, and with it the day's
-- partition of the minutes at rest (usage_series_hour, migration 0037), so
-- that an hour of usage_minute can always be moved there. Returns whether
-- usage_minute's was created. Creating a partition locks its parent
-- exclusively: usage_minute's first, then usage_series_hour's, the order in
-- which every reader (fleetcap_usage_minutes) takes them, so that a reader
-- waits for a writer, never the two for each other.
CREATE OR REPLACE FUNCTION fleetcap_ensure_usage_partition(day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  suffix text := to_char(day, 'YYYYMMDD');
  day_start timestamptz := day::timestamp AT TIME ZONE 'UTC';
  day_end timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
  created boolean := false;
BEGIN
  IF to_regclass('usage_minute_' || suffix) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF usage_minute FOR VALUES FROM (%L) TO (%L)',
                   'usage_minute_' || suffix, day_start, day_end);
    created := true;
  END IF;
  -- An hour row is a few hundred bytes compressed: compressed from 128 bytes
  -- on (the default, 2 kB, would leave most rows as they are).
  IF to_regclass('usage_series_hour_' || suffix) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF usage_series_hour FOR VALUES FROM (%L) TO (%L)'
                   ' WITH (toast_tuple_target = 128)', 'usage_series_hour_' || suffix, day_start, day_end);
  END IF;
  RETURN created;
END $$;

-- Creates the daily partitions of usage_minute, and of the minutes at rest
-- (usage_series_hour), from today through `days_ahead` days ahead, and drops
-- those that ended more than `retention_days` ago, with that day's
-- usage_hourly, usage_hour_changes, usage_cluster_hourly and
-- usage_cluster_hour_changes rows (kept as long as the minutes they roll
-- up). Idempotent. Returns usage_minute's partitions created + dropped.
CREATE OR REPLACE FUNCTION fleetcap_maintain_usage_partitions(
    now_utc timestamptz, days_ahead integer, retention_days integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  today   date := (now_utc AT TIME ZONE 'UTC')::date;
  changed integer := 0;
  part    record;
  part_end date;
  cutoff  timestamptz;
  cluster_name text;
BEGIN
  IF days_ahead < 0 OR retention_days < 1 THEN
    RAISE EXCEPTION 'days_ahead must be >= 0 and retention_days >= 1 (got %, %)',
      days_ahead, retention_days;
  END IF;
  FOR i IN 0..days_ahead LOOP
    IF fleetcap_ensure_usage_partition(today + i) THEN
      changed := changed + 1;
    END IF;
  END LOOP;
  FOR part IN
    SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname = 'usage_minute' AND c.relname ~ '^usage_minute_[0-9]{8}$'
  LOOP
    part_end := to_date(substring(part.relname from 14), 'YYYYMMDD') + 1;
    IF part_end <= today - retention_days THEN
      EXECUTE format('DROP TABLE %I', part.relname);
      changed := changed + 1;
    END IF;
  END LOOP;
  -- The minutes at rest (migration 0037) go with them, uncounted.
  FOR part IN
    SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname = 'usage_series_hour' AND c.relname ~ '^usage_series_hour_[0-9]{8}$'
  LOOP
    part_end := to_date(substring(part.relname from 19), 'YYYYMMDD') + 1;
    IF part_end <= today - retention_days THEN
      EXECUTE format('DROP TABLE %I', part.relname);
    END IF;
  END LOOP;
  -- The hourly rollups go with the minutes they were made from, a cluster
  -- at a time so that each delete is a range of the primary key (found by
  -- skipping from one cluster to the next along it, never by a scan).
  cutoff := (today - retention_days)::timestamp AT TIME ZONE 'UTC';
  FOR cluster_name IN
    WITH RECURSIVE clusters_seen AS (
      SELECT min(cluster) AS cluster FROM usage_hourly
      UNION ALL
      SELECT (SELECT min(u.cluster) FROM usage_hourly u WHERE u.cluster > s.cluster)
        FROM clusters_seen s WHERE s.cluster IS NOT NULL)
    SELECT cluster FROM clusters_seen WHERE cluster IS NOT NULL
  LOOP
    DELETE FROM usage_hourly WHERE cluster = cluster_name AND hour < cutoff;
  END LOOP;
  FOR cluster_name IN
    WITH RECURSIVE clusters_seen AS (
      SELECT min(cluster) AS cluster FROM usage_hour_changes
      UNION ALL
      SELECT (SELECT min(u.cluster) FROM usage_hour_changes u WHERE u.cluster > s.cluster)
        FROM clusters_seen s WHERE s.cluster IS NOT NULL)
    SELECT cluster FROM clusters_seen WHERE cluster IS NOT NULL
  LOOP
    DELETE FROM usage_hour_changes WHERE cluster = cluster_name AND hour < cutoff;
  END LOOP;
  FOR cluster_name IN
    WITH RECURSIVE clusters_seen AS (
      SELECT min(cluster) AS cluster FROM usage_cluster_hour_changes
      UNION ALL
      SELECT (SELECT min(u.cluster) FROM usage_cluster_hour_changes u WHERE u.cluster > s.cluster)
        FROM clusters_seen s WHERE s.cluster IS NOT NULL)
    SELECT cluster FROM clusters_seen WHERE cluster IS NOT NULL
  LOOP
    DELETE FROM usage_cluster_hour_changes WHERE cluster = cluster_name AND hour < cutoff;
  END LOOP;
  FOR cluster_name IN
    WITH RECURSIVE clusters_seen AS (
      SELECT min(cluster) AS cluster FROM usage_cluster_hourly
      UNION ALL
      SELECT (SELECT min(u.cluster) FROM usage_cluster_hourly u WHERE u.cluster > s.cluster)
        FROM clusters_seen s WHERE s.cluster IS NOT NULL)
    SELECT cluster FROM clusters_seen WHERE cluster IS NOT NULL
  LOOP
    DELETE FROM usage_cluster_hourly WHERE cluster = cluster_name AND hour < cutoff;
  END LOOP;
  RETURN changed;
END $$;

-- A day of usage_minute whose every minute has moved to rest gives its space
-- back (migration 0037): a move deletes rows, whose pages the day's
-- partition would keep until retention drops it. The day is emptied by
-- TRUNCATE once it ended three hours ago and none of its hours is due to be
-- moved, under the partition's exclusive lock, taken only if it is free
-- within a second (a reader of the day is not held up; the next move tries
-- again), the due hours checked again under it: a writer that wrote to the
-- day meanwhile made its hour due. Every row there is a whole minute (the
-- writers set aside others), so every row was moved. Returns whether the day
-- was emptied.
CREATE OR REPLACE FUNCTION fleetcap_release_moved_usage_day(day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  part text := 'usage_minute_' || to_char(day, 'YYYYMMDD');
  day_start timestamptz := day::timestamp AT TIME ZONE 'UTC';
  lock_wait text := current_setting('lock_timeout');
BEGIN
  IF to_regclass(part) IS NULL OR day_start + interval '1 day' > now() - interval '3 hours'
     OR EXISTS (SELECT 1 FROM usage_hours_to_compact
                 WHERE hour >= day_start AND hour < day_start + interval '1 day') THEN
    RETURN false;
  END IF;
  BEGIN
    PERFORM set_config('lock_timeout', '1s', true);
    EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', part);
  EXCEPTION WHEN lock_not_available THEN
    RETURN false;
  END;
  PERFORM set_config('lock_timeout', lock_wait, true);
  IF EXISTS (SELECT 1 FROM usage_hours_to_compact WHERE hour >= day_start AND hour < day_start + interval '1 day') THEN
    RETURN false;
  END IF;
  EXECUTE format('TRUNCATE %I', part);
  RETURN true;
END $$;

-- Moves one hour of a cluster's minutes from usage_minute to rest in
-- usage_series_hour (migration 0037): a row per series and hour, the minutes
-- present as a bitmask and each field as an array of the hour's 60 minutes.
-- The hour's rows at rest of every device with a minute moved are decoded
-- and built again with them (a minute moved replaces its own), so minutes
-- that come late rewrite their hour. A pod's series whose every minute of
-- the hour has the very bits of its device's minute (one pod on a whole
-- GPU) keeps no arrays: `values_series` names the device's series. Moving is
-- no change to the minutes: the statement triggers on usage_minute leave
-- the rollups alone (fleetcap.moving_minutes). Only whole minutes are
-- moved (the writers set aside any other). A day whose every hour moved
-- gives its space back (fleetcap_release_moved_usage_day). Returns the
-- minutes moved.
CREATE OR REPLACE FUNCTION fleetcap_compact_usage_hour(cluster_name text, hour_start timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  IF date_trunc('hour', hour_start, 'UTC') <> hour_start THEN
    RAISE EXCEPTION 'hour_start % is not a whole UTC hour', hour_start;
  END IF;
  -- A minute written again is looked for at rest only when more than an
  -- hour old (fleetcap_usage_minutes_changed): an hour moved sooner could
  -- keep a minute in both places.
  IF hour_start > now() - interval '3 hours' THEN
    RAISE EXCEPTION 'hour % ends less than two hours ago: not moved to rest yet', hour_start;
  END IF;
  DELETE FROM usage_hours_to_compact WHERE cluster = cluster_name AND hour = hour_start;
  IF to_regclass('pg_temp.fleetcap_hour_minutes') IS NULL THEN  -- (IF NOT EXISTS would notice each call)
    CREATE TEMP TABLE fleetcap_hour_minutes (LIKE usage_minute) ON COMMIT DELETE ROWS;
  END IF;
  TRUNCATE fleetcap_hour_minutes;
  PERFORM set_config('fleetcap.moving_minutes', 'on', true);
  WITH m AS (
    DELETE FROM usage_minute
     WHERE cluster = cluster_name AND minute >= hour_start AND minute < hour_start + interval '1 hour'
       AND date_trunc('minute', minute, 'UTC') = minute
    RETURNING *)
  INSERT INTO fleetcap_hour_minutes SELECT * FROM m;
  GET DIAGNOSTICS moved = ROW_COUNT;
  PERFORM set_config('fleetcap.moving_minutes', 'off', true);
  IF moved = 0 THEN
    PERFORM fleetcap_release_moved_usage_day((hour_start AT TIME ZONE 'UTC')::date);
    RETURN 0;
  END IF;
  -- A temporary table has no statistics until analysed: planned without,
  -- the joins below would be nested loops over thousands of rows.
  ANALYZE fleetcap_hour_minutes;

  -- The hour rows of the devices moved, decoded as fleetcap_usage_minutes
  -- decodes them, from the rows this statement deletes (a read through
  -- that function would also see minutes written to usage_minute since).
  WITH old AS (
    DELETE FROM usage_series_hour h USING usage_series s
     WHERE h.cluster = cluster_name AND h.hour = hour_start AND s.cluster = h.cluster AND s.series_id = h.series_id
       AND s.device_id IN (SELECT DISTINCT device_id FROM fleetcap_hour_minutes)
    RETURNING h.*, s.device_id, s.pod_uid, s.node, s.model, s.namespace, s.pod)
  INSERT INTO fleetcap_hour_minutes
  SELECT o.cluster, o.device_id, o.pod_uid, hour_start + (m.slot - 1) * interval '1 minute', m.util_mean, m.util_max,
         m.memory_used_bytes, m.power_watts, m.energy_joules, m.samples, o.node, o.model, o.namespace, o.pod,
         m.memory_total_bytes, m.sm_active_mean, m.tensor_active_mean, m.dram_active_mean
    FROM old o
    LEFT JOIN old v ON v.series_id = o.values_series
   CROSS JOIN LATERAL unnest(
           CASE WHEN o.values_series IS NULL THEN o.util_mean ELSE v.util_mean END,
           CASE WHEN o.values_series IS NULL THEN o.util_max ELSE v.util_max END,
           CASE WHEN o.values_series IS NULL THEN o.memory_used_bytes ELSE v.memory_used_bytes END,
           CASE WHEN o.values_series IS NULL THEN o.power_watts ELSE v.power_watts END,
           CASE WHEN o.values_series IS NULL THEN o.energy_joules ELSE v.energy_joules END,
           CASE WHEN o.values_series IS NULL THEN o.samples ELSE v.samples END,
           CASE WHEN o.values_series IS NULL THEN o.memory_total_bytes ELSE v.memory_total_bytes END,
           CASE WHEN o.values_series IS NULL THEN o.sm_active_mean ELSE v.sm_active_mean END,
           CASE WHEN o.values_series IS NULL THEN o.tensor_active_mean ELSE v.tensor_active_mean END,
           CASE WHEN o.values_series IS NULL THEN o.dram_active_mean ELSE v.dram_active_mean END)
         WITH ORDINALITY m(util_mean, util_max, memory_used_bytes, power_watts, energy_joules, samples,
                           memory_total_bytes, sm_active_mean, tensor_active_mean, dram_active_mean, slot)
   WHERE o.minutes & (1::bigint << (m.slot::integer - 1)) <> 0
     AND NOT EXISTS (SELECT 1 FROM fleetcap_hour_minutes n
                      WHERE n.device_id = o.device_id AND n.pod_uid = o.pod_uid
                        AND n.minute = hour_start + (m.slot - 1) * interval '1 minute');

  INSERT INTO usage_series (cluster, device_id, pod_uid, node, model, namespace, pod)
  SELECT DISTINCT cluster, device_id, pod_uid, node, model, namespace, pod FROM fleetcap_hour_minutes
  ON CONFLICT DO NOTHING;

  -- The hour's minutes by series id and slot, analysed too (the statistics
  -- of usage_series may not know its newest series yet).
  IF to_regclass('pg_temp.fleetcap_hour_slots') IS NULL THEN
    CREATE TEMP TABLE fleetcap_hour_slots (
      series_id integer, device_id text, pod_uid text, slot integer, samples integer, util_mean double precision,
      util_max double precision, memory_used_bytes bigint, power_watts double precision, energy_joules double precision,
      memory_total_bytes bigint, sm_active_mean double precision, tensor_active_mean double precision,
      dram_active_mean double precision) ON COMMIT DELETE ROWS;
  END IF;
  TRUNCATE fleetcap_hour_slots;
  INSERT INTO fleetcap_hour_slots
  SELECT s.series_id, u.device_id, u.pod_uid, (extract(epoch FROM u.minute - hour_start) / 60)::integer,
         u.samples, u.util_mean, u.util_max, u.memory_used_bytes, u.power_watts, u.energy_joules,
         u.memory_total_bytes, u.sm_active_mean, u.tensor_active_mean, u.dram_active_mean
    FROM fleetcap_hour_minutes u
    JOIN usage_series s
      ON s.cluster = cluster_name AND s.device_id = u.device_id AND s.pod_uid = u.pod_uid AND s.node = u.node
     AND s.model = u.model AND s.namespace = u.namespace AND s.pod = u.pod;
  ANALYZE fleetcap_hour_slots;

  WITH slots AS (
    SELECT * FROM fleetcap_hour_slots
  ), series AS (
    SELECT series_id, bit_or(1::bigint << slot) AS minutes, count(*) AS slots FROM slots GROUP BY series_id
  ), pod_as_device AS (
    -- float8send tells 0 from -0 and one NaN from another.
    SELECT p.series_id, min(d.series_id) AS values_series
      FROM slots p
      JOIN slots d ON d.device_id = p.device_id AND d.pod_uid = '' AND d.slot = p.slot
      JOIN series c ON c.series_id = p.series_id
     WHERE p.pod_uid <> ''
     GROUP BY p.series_id
    HAVING count(DISTINCT d.series_id) = 1 AND count(*) = max(c.slots)
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
  ), own AS (
    -- The 60 minutes of each series that keeps its own values, NULL where none.
    SELECT k.series_id, array_agg(s.samples ORDER BY g.i) AS samples, array_agg(s.util_mean ORDER BY g.i) AS util_mean,
           array_agg(s.util_max ORDER BY g.i) AS util_max,
           array_agg(s.memory_used_bytes ORDER BY g.i) AS memory_used_bytes,
           array_agg(s.power_watts ORDER BY g.i) AS power_watts,
           array_agg(s.energy_joules ORDER BY g.i) AS energy_joules,
           array_agg(s.memory_total_bytes ORDER BY g.i) AS memory_total_bytes,
           array_agg(s.sm_active_mean ORDER BY g.i) AS sm_active_mean,
           array_agg(s.tensor_active_mean ORDER BY g.i) AS tensor_active_mean,
           array_agg(s.dram_active_mean ORDER BY g.i) AS dram_active_mean
      FROM series k
     CROSS JOIN generate_series(0, 59) g(i)
      LEFT JOIN slots s ON s.series_id = k.series_id AND s.slot = g.i
     WHERE NOT EXISTS (SELECT 1 FROM pod_as_device o WHERE o.series_id = k.series_id)
     GROUP BY k.series_id
  )
  INSERT INTO usage_series_hour (cluster, hour, series_id, minutes, values_series, samples, util_mean, util_max,
                                 memory_used_bytes, power_watts, energy_joules, memory_total_bytes, sm_active_mean,
                                 tensor_active_mean, dram_active_mean)
  SELECT cluster_name, hour_start, k.series_id, k.minutes, o.values_series, a.samples, a.util_mean, a.util_max,
         a.memory_used_bytes, a.power_watts, a.energy_joules, a.memory_total_bytes, a.sm_active_mean,
         a.tensor_active_mean, a.dram_active_mean
    FROM series k
    LEFT JOIN pod_as_device o ON o.series_id = k.series_id
    LEFT JOIN own a ON a.series_id = k.series_id
   ORDER BY k.series_id;
  PERFORM fleetcap_release_moved_usage_day((hour_start AT TIME ZONE 'UTC')::date);
  RETURN moved;
END $$;

-- usage_minute: pod minutes written (COPY, INSERT, upsert) or deleted make
-- their hours stale for the rollup (usage_hour_changes), and below the later
-- of the cluster's and the fleet's chargeback watermark mark them `late
-- telemetry`, as fleetcap_mark_recompute does. Only pod rows: the device's own
-- rows are neither rolled up into usage_hourly nor attributed. Any minute, a
-- device's or a pod's, makes its hour stale for the cluster's hourly usage
-- (usage_cluster_hour_changes, migration 0034). Transition tables on the
-- partitioned parent see the rows of every partition.
-- Minutes written make their hour due to be moved to rest
-- (usage_hours_to_compact, migration 0037), and a minute written again once
-- its hour is at rest takes the place of the one at rest, whose bit is
-- cleared: each minute is in one place. Only minutes more than an hour old
-- are looked for at rest (fleetcap_compact_usage_hour moves hours that ended
-- two hours ago and more). Moving minutes to rest changes none of them:
-- its delete (fleetcap.moving_minutes) marks nothing.
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('fleetcap.moving_minutes', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE usage_series_hour h SET minutes = h.minutes & ~c.bits
      FROM (SELECT m.cluster, s.series_id, date_trunc('hour', m.minute, 'UTC') AS hour,
                   bit_or(1::bigint << (extract(epoch FROM m.minute - date_trunc('hour', m.minute, 'UTC')) / 60)::integer)
                     AS bits
              FROM changed_minutes m
              JOIN usage_series s ON s.cluster = m.cluster AND s.device_id = m.device_id AND s.pod_uid = m.pod_uid
             WHERE m.minute < now() - interval '1 hour' AND date_trunc('minute', m.minute, 'UTC') = m.minute
             GROUP BY 1, 2, 3) c
     WHERE h.cluster = c.cluster AND h.hour = c.hour AND h.series_id = c.series_id AND h.minutes & c.bits <> 0;
  END IF;
  WITH all_hours AS (
    SELECT cluster, date_trunc('hour', minute, 'UTC') AS hour, bool_or(pod_uid <> '') AS pods
      FROM changed_minutes GROUP BY 1, 2
  ), due AS (
    -- (after a delete too: moving an hour with nothing left costs a look)
    INSERT INTO usage_hours_to_compact (cluster, hour) SELECT cluster, hour FROM all_hours ON CONFLICT DO NOTHING
  ), cluster_stale AS (
    INSERT INTO usage_cluster_hour_changes (cluster, hour) SELECT cluster, hour FROM all_hours
  ), hours AS (
    SELECT cluster, hour FROM all_hours WHERE pods
  ), stale AS (
    INSERT INTO usage_hour_changes (cluster, hour) SELECT cluster, hour FROM hours
  )
  INSERT INTO chargeback_recompute (cluster, hour, reason)
  SELECT h.cluster, h.hour, 'late telemetry' FROM hours h
   WHERE h.hour < (SELECT max(w.through) FROM chargeback_watermarks w WHERE w.cluster IN ('', h.cluster))
     AND NOT EXISTS (SELECT 1 FROM chargeback_recompute m
                      WHERE m.cluster = h.cluster AND m.hour = h.hour AND m.taken_until IS NULL)
   ORDER BY h.cluster, h.hour
  ON CONFLICT (cluster, hour) DO UPDATE SET generation = chargeback_recompute.generation + 1
   WHERE chargeback_recompute.taken_until IS NOT NULL;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER usage_minute_inserted AFTER INSERT ON usage_minute
  REFERENCING NEW TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();
CREATE OR REPLACE TRIGGER usage_minute_updated AFTER UPDATE ON usage_minute
  REFERENCING NEW TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();
CREATE OR REPLACE TRIGGER usage_minute_deleted AFTER DELETE ON usage_minute
  REFERENCING OLD TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();

-- Rolls up one hour of a cluster's usage_minute into usage_cluster_hourly
-- (migration 0034): replaces the hour's rows with what GET /v1/usage's hourly
-- buckets are made of, per (pods' shares or whole devices) for the whole
-- cluster, per model and per namespace: the sums and counts behind each mean
-- (util_mean weighted by samples, memory, power), the max and the distinct
-- series (device_id, pod_uid) of the hour. A model or namespace '' is no
-- group of its own ('' selects any), so the row with both '' is the whole
-- cluster's. Read as the usage reads see the minutes, wherever they are kept
-- (fleetcap_usage_minutes).
CREATE OR REPLACE FUNCTION fleetcap_usage_cluster_hour(cluster_name text, hour_start timestamptz) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM usage_cluster_hourly WHERE cluster = cluster_name AND hour = hour_start;
  INSERT INTO usage_cluster_hourly (cluster, pods, model, namespace, hour, util_weighted, util_samples, util_max,
                                    memory_sum, memory_rows, power_sum, power_rows, series)
  SELECT cluster_name, pod_uid <> '', CASE WHEN GROUPING(model) = 0 THEN model ELSE '' END,
         CASE WHEN GROUPING(namespace) = 0 THEN namespace ELSE '' END, hour_start,
         sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL),
         sum(samples) FILTER (WHERE util_mean IS NOT NULL), max(util_max), sum(memory_used_bytes),
         count(memory_used_bytes), sum(power_watts), count(power_watts), count(DISTINCT (device_id, pod_uid))
    FROM fleetcap_usage_minutes(cluster_name, hour_start, hour_start + interval '1 hour')
   GROUP BY GROUPING SETS ((pod_uid <> ''), (pod_uid <> '', model), (pod_uid <> '', namespace))
  HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
$$;

-- The days usage_minute has, at rest too.
SELECT fleetcap_ensure_usage_partition(to_date(substring(c.relname from 14), 'YYYYMMDD'))
  FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_class p ON p.oid = i.inhparent
 WHERE p.relname = 'usage_minute' AND c.relname ~ '^usage_minute_[0-9]{8}$';

-- Every hour with minutes is in the cluster's hourly rollup or due for it.
INSERT INTO usage_hours_to_compact (cluster, hour)
SELECT cluster, hour FROM usage_cluster_hourly
UNION
SELECT cluster, hour FROM usage_cluster_hour_changes
ON CONFLICT DO NOTHING;
