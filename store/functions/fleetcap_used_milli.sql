-- util_mean as store::UsedMilli's milli-devices, saturated to smallint; NULL
-- stays NULL. round() of a float8 breaks ties to even; llround() away from
-- zero, so ties (the fraction of a float8 is exact) are rounded here by
-- hand. One expression and not STRICT (migration 0047): PostgreSQL inlines
-- it into the rollup's statement, where a call through the function manager
-- for each of an hour's minutes took three quarters of the rollup's time.
CREATE OR REPLACE FUNCTION fleetcap_used_milli(util_mean double precision) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN util_mean IS NOT NULL THEN least(greatest(CASE
      WHEN NOT (abs(util_mean) <= 1e6) THEN -1
      WHEN abs(util_mean * 1000 - trunc(util_mean * 1000)) = 0.5 THEN trunc(util_mean * 1000) + sign(util_mean)
      ELSE round(util_mean * 1000) END, -32768), 32767)::smallint END
$$;
