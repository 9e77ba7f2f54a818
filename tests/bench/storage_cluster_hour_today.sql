-- pgbench script (storage_per_row.sh): what the hourly rollup of the
-- cluster's usage reads for one hour of the measured minutes, from
-- usage_minute (fleetcap_usage_cluster_hour's SELECT, ordered to compare).
\set h random(0, :hours - 1)
SELECT pods, CASE WHEN GROUPING(model) = 0 THEN model ELSE '' END,
       CASE WHEN GROUPING(namespace) = 0 THEN namespace ELSE '' END,
       sum(util_weighted), sum(util_samples), max(util_max), sum(memory_sum), sum(memory_rows), sum(power_sum),
       sum(power_rows), count(DISTINCT (device_id, pod_uid))
  FROM (SELECT device_id, pod_uid, pod_uid <> '' AS pods, model, namespace,
               sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL) AS util_weighted,
               sum(samples) FILTER (WHERE util_mean IS NOT NULL) AS util_samples, max(util_max) AS util_max,
               sum(memory_used_bytes) AS memory_sum, count(memory_used_bytes) AS memory_rows,
               sum(power_watts) AS power_sum, count(power_watts) AS power_rows
          FROM usage_minute
         WHERE cluster = 'bench' AND minute >= '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour'
           AND minute < '2026-03-02T00:00:00Z'::timestamptz + (:h + 1) * interval '1 hour'
         GROUP BY device_id, pod_uid, model, namespace) series
 GROUP BY GROUPING SETS ((pods), (pods, model), (pods, namespace))
HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
 ORDER BY 1, 2, 3;
