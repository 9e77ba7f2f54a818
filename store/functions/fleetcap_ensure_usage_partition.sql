-- Telemetry may carry minutes from any day (a backfill, a replay): the
-- writer creates the day's partition on demand.
CREATE OR REPLACE FUNCTION fleetcap_ensure_usage_partition(day date) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass(format('usage_minute_%s', to_char(day, 'YYYYMMDD'))) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format(
    'CREATE TABLE %I PARTITION OF usage_minute FOR VALUES FROM (%L) TO (%L)',
    format('usage_minute_%s', to_char(day, 'YYYYMMDD')),
    (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
  RETURN true;
END $$;
