-- Rolls up one hour of a cluster's usage_minute into usage_cluster_hourly
-- (migration 0034): replaces the hour's rows with what GET /v1/usage's hourly
-- buckets are made of, per (pods' shares or whole devices) for the whole
-- cluster, per model and per namespace: the sums and counts behind each mean
-- (util_mean weighted by samples, memory, power), the max and the distinct
-- series (device_id, pod_uid) of the hour. A model or namespace '' is no
-- group of its own ('' selects any), so the row with both '' is the whole
-- cluster's. Read as the usage reads see the minutes, wherever they are kept
-- (fleetcap_usage_minutes).
CREATE OR REPLACE FUNCTION fleetcap_usage_cluster_hour(cluster_name text, hour_start timestamptz) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM usage_cluster_hourly WHERE cluster = cluster_name AND hour = hour_start;
  INSERT INTO usage_cluster_hourly (cluster, pods, model, namespace, hour, util_weighted, util_samples, util_max,
                                    memory_sum, memory_rows, power_sum, power_rows, series)
  SELECT cluster_name, pod_uid <> '', CASE WHEN GROUPING(model) = 0 THEN model ELSE '' END,
         CASE WHEN GROUPING(namespace) = 0 THEN namespace ELSE '' END, hour_start,
         sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL),
         sum(samples) FILTER (WHERE util_mean IS NOT NULL), max(util_max), sum(memory_used_bytes),
         count(memory_used_bytes), sum(power_watts), count(power_watts), count(DISTINCT (device_id, pod_uid))
    FROM fleetcap_usage_minutes(cluster_name, hour_start, hour_start + interval '1 hour')
   GROUP BY GROUPING SETS ((pod_uid <> ''), (pod_uid <> '', model), (pod_uid <> '', namespace))
  HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
$$;
