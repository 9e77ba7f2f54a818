-- Sixty readings from (minute of the hour, value) pairs; NULL where none.
CREATE OR REPLACE FUNCTION fleetcap_minute_readings(minutes integer[], used smallint[]) RETURNS smallint[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  readings smallint[] := array_fill(NULL::smallint, ARRAY[60]);
BEGIN
  FOR i IN 1..coalesce(array_length(minutes, 1), 0) LOOP
    readings[minutes[i] + 1] := used[i];
  END LOOP;
  RETURN readings;
END $$;
