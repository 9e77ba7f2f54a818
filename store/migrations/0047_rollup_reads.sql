-- The hourly rollups read an hour's minutes in a fraction of the time, from
-- usage_minute and from rest alike (docs/benchmarks.md, "The rollups' reads
-- of an hour"): fleetcap_used_milli is one expression that PostgreSQL
-- inlines (as STRICT it was called through the function manager for each
-- minute, three quarters of the pods' rollup), and fleetcap_usage_cluster_hour
-- sums the minutes per series before its grouping sets (which sorted every
-- minute once per set, on disk). The same answers: the readings to the bit,
-- the counts and integer sums exact, a float sum up to the order it adds in.

-- The readings' rounding (the text of store/functions/fleetcap_used_milli.sql).
CREATE OR REPLACE FUNCTION fleetcap_used_milli(util_mean double precision) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN util_mean IS NOT NULL THEN least(greatest(CASE
      WHEN NOT (abs(util_mean) <= 1e6) THEN -1
      WHEN abs(util_mean * 1000 - trunc(util_mean * 1000)) = 0.5 THEN trunc(util_mean * 1000) + sign(util_mean)
      ELSE round(util_mean * 1000) END, -32768), 32767)::smallint END
$$;

-- The cluster's rollup (the text of store/functions/fleetcap_usage_cluster_hour.sql).
CREATE OR REPLACE FUNCTION fleetcap_usage_cluster_hour(cluster_name text, hour_start timestamptz) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM usage_cluster_hourly WHERE cluster = cluster_name AND hour = hour_start;
  INSERT INTO usage_cluster_hourly (cluster, pods, model, namespace, hour, util_weighted, util_samples, util_max,
                                    memory_sum, memory_rows, power_sum, power_rows, series)
  SELECT cluster_name, pods, CASE WHEN GROUPING(model) = 0 THEN model ELSE '' END,
         CASE WHEN GROUPING(namespace) = 0 THEN namespace ELSE '' END, hour_start,
         sum(util_weighted), sum(util_samples), max(util_max), sum(memory_sum), sum(memory_rows), sum(power_sum),
         sum(power_rows), count(DISTINCT (device_id, pod_uid))
    FROM (SELECT device_id, pod_uid, pod_uid <> '' AS pods, model, namespace,
                 sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL) AS util_weighted,
                 sum(samples) FILTER (WHERE util_mean IS NOT NULL) AS util_samples, max(util_max) AS util_max,
                 sum(memory_used_bytes) AS memory_sum, count(memory_used_bytes) AS memory_rows,
                 sum(power_watts) AS power_sum, count(power_watts) AS power_rows
            FROM fleetcap_usage_minutes(cluster_name, hour_start, hour_start + interval '1 hour')
           GROUP BY device_id, pod_uid, model, namespace) series
   GROUP BY GROUPING SETS ((pods), (pods, model), (pods, namespace))
  HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
$$;
