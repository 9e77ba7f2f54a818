-- util_mean as store::UsedMilli's milli-devices, saturated to smallint.
-- round() of a float8 breaks ties to even; llround() away from zero, so ties
-- (the fraction of a float8 is exact) are rounded here by hand.
CREATE OR REPLACE FUNCTION fleetcap_used_milli(util_mean double precision) RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT least(greatest(CASE
      WHEN NOT (abs(util_mean) <= 1e6) THEN -1
      WHEN abs(util_mean * 1000 - trunc(util_mean * 1000)) = 0.5 THEN trunc(util_mean * 1000) + sign(util_mean)
      ELSE round(util_mean * 1000) END, -32768), 32767)::smallint
$$;
