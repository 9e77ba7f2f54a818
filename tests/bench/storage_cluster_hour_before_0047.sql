-- pgbench script (storage_per_row.sh): what the hourly rollup of the
-- cluster's usage read of an hour before migration 0047 (its grouping sets
-- over the minutes themselves), from usage_minute; the baseline of
-- storage_cluster_hour_today.sql.
\set h random(0, :hours - 1)
SELECT pod_uid <> '', CASE WHEN GROUPING(model) = 0 THEN model ELSE '' END,
       CASE WHEN GROUPING(namespace) = 0 THEN namespace ELSE '' END,
       sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL), sum(samples) FILTER (WHERE util_mean IS NOT NULL),
       max(util_max), sum(memory_used_bytes), count(memory_used_bytes), sum(power_watts), count(power_watts),
       count(DISTINCT (device_id, pod_uid))
  FROM usage_minute
 WHERE cluster = 'bench' AND minute >= '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour'
   AND minute < '2026-03-02T00:00:00Z'::timestamptz + (:h + 1) * interval '1 hour'
 GROUP BY GROUPING SETS ((pod_uid <> ''), (pod_uid <> '', model), (pod_uid <> '', namespace))
HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
 ORDER BY 1, 2, 3;
