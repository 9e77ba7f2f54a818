-- A release of moved usage minutes waits for its partition's lock a second
-- past deadlock_timeout (store/functions/fleetcap_release_lock_wait.sql):
-- waiting exactly that long raced the cancellation of an autovacuum of the
-- partition the move had just emptied, and the day or hour kept its pages.

-- The wait (the text of store/functions/fleetcap_release_lock_wait.sql).
CREATE OR REPLACE FUNCTION fleetcap_release_lock_wait() RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT (extract(epoch FROM current_setting('deadlock_timeout')::interval) * 1000 + 1000)::bigint || 'ms'
$$;

-- A day's release (the text of store/functions/fleetcap_release_moved_usage_day.sql).
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
    PERFORM set_config('lock_timeout', fleetcap_release_lock_wait(), true);
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

-- An hour's release (the text of store/functions/fleetcap_release_moved_usage_hour.sql).
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
