-- pgbench script (storage_per_row.sh): the same read as
-- storage_cluster_hour_today.sql, once the minutes are at rest (migration
-- 0037), through fleetcap_usage_minutes as fleetcap_usage_cluster_hour reads.
\set h random(0, :hours - 1)
SELECT pod_uid <> '', CASE WHEN GROUPING(model) = 0 THEN model ELSE '' END,
       CASE WHEN GROUPING(namespace) = 0 THEN namespace ELSE '' END,
       sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL), sum(samples) FILTER (WHERE util_mean IS NOT NULL),
       max(util_max), sum(memory_used_bytes), count(memory_used_bytes), sum(power_watts), count(power_watts),
       count(DISTINCT (device_id, pod_uid))
  FROM fleetcap_usage_minutes('bench', '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour',
                              '2026-03-02T00:00:00Z'::timestamptz + (:h + 1) * interval '1 hour')
 GROUP BY GROUPING SETS ((pod_uid <> ''), (pod_uid <> '', model), (pod_uid <> '', namespace))
HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
 ORDER BY 1, 2, 3;
