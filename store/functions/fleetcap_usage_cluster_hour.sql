-- Rolls up one hour of a cluster's usage_minute into usage_cluster_hourly
-- (migration 0034): replaces the hour's rows with what GET /v1/usage's hourly
-- buckets are made of, per (pods' shares or whole devices) for the whole
-- cluster, per model and per namespace: the sums and counts behind each mean
-- (util_mean weighted by samples, memory, power), the max and the distinct
-- series (device_id, pod_uid) of the hour. A model or namespace '' is no
-- group of its own ('' selects any), so the row with both '' is the whole
-- cluster's. Read as the usage reads see the minutes, wherever they are kept
-- (fleetcap_usage_minutes). The minutes are summed per series first, in one
-- pass of a hash, and the grouping sets made of those sums (migration 0047):
-- grouping sets over the minutes themselves sorted them once per set, on
-- disk at a few thousand devices. Float sums may add in another order than
-- before (the last bits of a sum; the counts and integer sums are exact).
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
