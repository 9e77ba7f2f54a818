-- Telemetry may carry minutes from any day (a backfill, a replay): the
-- writer creates the day's partition on demand, and with it the day's
-- partition of the minutes at rest (usage_series_hour, migration 0037), so
-- that an hour of usage_minute can always be moved there. Returns whether
-- usage_minute's was created. Creating a partition locks its parent
-- exclusively: usage_minute's first, then usage_series_hour's, the order in
-- which every reader (fleetcap_usage_minutes) takes them, so that a reader
-- waits for a writer, never the two for each other.
-- A day's partition of usage_minute is itself partitioned by hour
-- (migration 0044): 24 partitions, `usage_minute_YYYYMMDD_HH`, so that an
-- hour moved to rest gives its pages back within the day
-- (fleetcap_release_moved_usage_hour). The day keeps its name: retention
-- drops it with its hours, and readers read usage_minute. The days created
-- before 0044 keep one flat partition each.
CREATE OR REPLACE FUNCTION fleetcap_ensure_usage_partition(day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  suffix text := to_char(day, 'YYYYMMDD');
  day_start timestamptz := day::timestamp AT TIME ZONE 'UTC';
  day_end timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
  created boolean := false;
BEGIN
  IF to_regclass('usage_minute_' || suffix) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF usage_minute FOR VALUES FROM (%L) TO (%L) PARTITION BY RANGE (minute)',
                   'usage_minute_' || suffix, day_start, day_end);
    FOR h IN 0..23 LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                     'usage_minute_' || suffix || '_' || to_char(h, 'FM00'), 'usage_minute_' || suffix,
                     day_start + h * interval '1 hour', day_start + (h + 1) * interval '1 hour');
    END LOOP;
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
