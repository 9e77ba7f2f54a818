-- An hour of usage_minute whose every minute has moved to rest gives its
-- space back within the day (migration 0044): the days created since are
-- partitioned by hour (fleetcap_ensure_usage_partition), and the hour's
-- partition is emptied by TRUNCATE under the rules of
-- fleetcap_release_moved_usage_day: once the hour ended three hours ago and
-- no cluster's minutes of it are due to be moved, under the partition's
-- exclusive lock, taken only if it is free within fleetcap_release_lock_wait()
-- (a reader of the hour is held up no longer; the next move tries again),
-- the due hour checked again under it: a writer that wrote to the hour
-- meanwhile made it due. An hour already given back (no pages) is left alone
-- without a lock, and so is a day created before 0044 (no hour partitions:
-- the day's release empties it). Returns whether the hour was emptied.
CREATE OR REPLACE FUNCTION fleetcap_release_moved_usage_hour(hour_start timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  part text := 'usage_minute_' || to_char(hour_start AT TIME ZONE 'UTC', 'YYYYMMDD_HH24');
  lock_wait text := current_setting('lock_timeout');
BEGIN
  IF date_trunc('hour', hour_start, 'UTC') <> hour_start OR to_regclass(part) IS NULL
     OR hour_start + interval '1 hour' > now() - interval '3 hours'
     OR EXISTS (SELECT 1 FROM usage_hours_to_compact WHERE hour = hour_start) THEN
    RETURN false;
  END IF;
  BEGIN
    -- Its size is read under a lock too (one that waits for a release of
    -- the hour elsewhere): waited for as long as the release's.
    PERFORM set_config('lock_timeout', fleetcap_release_lock_wait(), true);
    IF coalesce(pg_relation_size(to_regclass(part)), 0) = 0 THEN
      PERFORM set_config('lock_timeout', lock_wait, true);
      RETURN false;
    END IF;
    EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', part);
  EXCEPTION WHEN lock_not_available THEN
    RETURN false;
  END;
  PERFORM set_config('lock_timeout', lock_wait, true);
  IF EXISTS (SELECT 1 FROM usage_hours_to_compact WHERE hour = hour_start) THEN
    RETURN false;
  END IF;
  EXECUTE format('TRUNCATE %I', part);
  RETURN true;
END $$;
