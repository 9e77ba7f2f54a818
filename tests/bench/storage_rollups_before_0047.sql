-- The rounding of the pods' readings as it was before migration 0047 (STRICT,
-- so called through the function manager for each minute), for the reads of
-- storage_*_before_0047.sql, the baseline of that migration's in the same run.
\set ON_ERROR_STOP on
CREATE OR REPLACE FUNCTION bench_used_milli_before_0047(util_mean double precision) RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT least(greatest(CASE
      WHEN NOT (abs(util_mean) <= 1e6) THEN -1
      WHEN abs(util_mean * 1000 - trunc(util_mean * 1000)) = 0.5 THEN trunc(util_mean * 1000) + sign(util_mean)
      ELSE round(util_mean * 1000) END, -32768), 32767)::smallint
$$;
