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
