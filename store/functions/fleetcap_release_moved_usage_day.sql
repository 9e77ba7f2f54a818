-- A day of usage_minute whose every minute has moved to rest gives its space
-- back (migration 0037): a move deletes rows, whose pages the day's
-- partition would keep until retention drops it. The day is emptied by
-- TRUNCATE once it ended three hours ago and none of its hours is due to be
-- moved, under the partition's exclusive lock, taken only if it is free
-- within fleetcap_release_lock_wait() (a second past deadlock_timeout, which
-- has an autovacuum of the partition cancelled; a reader of the day is held
-- up no longer; the next move of the day tries again), the due hours checked
-- again under it: a writer that wrote to the day meanwhile made its hour
-- due. Every row there is a whole minute (the writers set aside others), so
-- every row was moved. Returns whether the day was emptied.
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
