-- The cluster's hourly usage (GET /v1/usage by hour of a cluster, a model or
-- a namespace; PgUsageRepository::Buckets; docs/benchmarks.md, "Usage reads
-- from the cluster's hourly rollup"): the hours closed and rolled up are read
-- from usage_cluster_hourly, a few rows an hour, and only the hours not
-- rolled up yet (or made stale since) from usage_minute.
-- usage_cluster_hourly: per (cluster, pods' shares or whole devices, model,
-- namespace, hour) what the hour's bucket is made of, each as the minutes
-- give it: the sum of util_mean x samples and of samples over the rows with a
-- util_mean, the max of util_max, the sum and count of memory_used_bytes and
-- of power_watts, and the distinct series (device_id, pod_uid). model and
-- namespace '' are the rows of any (the whole cluster's is ('', '')); a model
-- or a namespace row is of that one alone.
-- usage_cluster_hour_changes: the hours with minutes (any: a device's or a
-- pod's) written since they were last rolled up, one row per writing
-- statement and hour, as usage_hour_changes keeps them for usage_hourly; the
-- hourly rollup (PgUsageRollupRepository::RollUp) rolls them up with it.
-- The functions below are as store/functions/ first defined them (those
-- files hold the definitions in force).
CREATE TABLE usage_cluster_hourly (
  cluster        text NOT NULL,
  pods           boolean NOT NULL,
  model          text NOT NULL,
  namespace      text NOT NULL,
  hour           timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  util_weighted  double precision,
  util_samples   bigint,
  util_max       double precision,
  memory_sum     numeric,
  memory_rows    bigint NOT NULL,
  power_sum      double precision,
  power_rows     bigint NOT NULL,
  series         bigint NOT NULL,
  PRIMARY KEY (cluster, pods, model, namespace, hour)
);
CREATE INDEX usage_cluster_hourly_by_hour ON usage_cluster_hourly (cluster, hour);

CREATE TABLE usage_cluster_hour_changes (
  cluster     text NOT NULL,
  hour        timestamptz NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_cluster_hour_changes_by_hour ON usage_cluster_hour_changes (cluster, hour);

-- Every hour with minutes already stored has never been rolled up.
INSERT INTO usage_cluster_hour_changes (cluster, hour)
SELECT DISTINCT cluster, date_trunc('hour', minute, 'UTC') FROM usage_minute;

-- Rolls up one hour of a cluster's usage_minute into usage_cluster_hourly
-- (migration 0034): replaces the hour's rows with what GET /v1/usage's hourly
-- buckets are made of, per (pods' shares or whole devices) for the whole
-- cluster, per model and per namespace: the sums and counts behind each mean
-- (util_mean weighted by samples, memory, power), the max and the distinct
-- series (device_id, pod_uid) of the hour. A model or namespace '' is no
-- group of its own ('' selects any), so the row with both '' is the whole
-- cluster's. Read from usage_minute as the usage reads see it, whatever way
-- the minutes are stored.
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
    FROM usage_minute
   WHERE cluster = cluster_name AND minute >= hour_start AND minute < hour_start + interval '1 hour'
   GROUP BY GROUPING SETS ((pod_uid <> ''), (pod_uid <> '', model), (pod_uid <> '', namespace))
  HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
$$;

-- usage_minute: pod minutes written (COPY, INSERT, upsert) or deleted make
-- their hours stale for the rollup (usage_hour_changes), and below the later
-- of the cluster's and the fleet's chargeback watermark mark them `late
-- telemetry`, as fleetcap_mark_recompute does. Only pod rows: the device's own
-- rows are neither rolled up into usage_hourly nor attributed. Any minute, a
-- device's or a pod's, makes its hour stale for the cluster's hourly usage
-- (usage_cluster_hour_changes, migration 0034). Transition tables on the
-- partitioned parent see the rows of every partition.
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH all_hours AS (
    SELECT cluster, date_trunc('hour', minute, 'UTC') AS hour, bool_or(pod_uid <> '') AS pods
      FROM changed_minutes GROUP BY 1, 2
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

-- Creates the daily partitions of usage_minute from today through
-- `days_ahead` days ahead, and drops those that ended more than
-- `retention_days` ago, with that day's usage_hourly, usage_hour_changes,
-- usage_cluster_hourly and usage_cluster_hour_changes rows (kept as long as
-- the minutes they roll up). Idempotent. Returns the
-- partitions created + dropped.
CREATE OR REPLACE FUNCTION fleetcap_maintain_usage_partitions(
    now_utc timestamptz, days_ahead integer, retention_days integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  today   date := (now_utc AT TIME ZONE 'UTC')::date;
  day     date;
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
    day := today + i;
    IF to_regclass(format('usage_minute_%s', to_char(day, 'YYYYMMDD'))) IS NULL THEN
      EXECUTE format(
        'CREATE TABLE %I PARTITION OF usage_minute FOR VALUES FROM (%L) TO (%L)',
        format('usage_minute_%s', to_char(day, 'YYYYMMDD')),
        (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
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
