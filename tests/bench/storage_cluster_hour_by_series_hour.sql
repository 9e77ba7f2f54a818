-- pgbench script (storage_per_row.sh): the same rollup read as
-- storage_cluster_hour_today.sql, the same aggregates of the same minutes,
-- from usage_series and usage_series_hour: the cluster's series, each with
-- its one row of the hour, its arrays unnested once.
\set h random(0, :hours - 1)
SELECT pod_uid <> '', CASE WHEN GROUPING(model) = 0 THEN model ELSE '' END,
       CASE WHEN GROUPING(namespace) = 0 THEN namespace ELSE '' END,
       sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL), sum(samples) FILTER (WHERE util_mean IS NOT NULL),
       max(util_max), sum(memory_used_bytes), count(memory_used_bytes), sum(power_watts), count(power_watts),
       count(DISTINCT (device_id, pod_uid))
  FROM (SELECT s.device_id, s.pod_uid, s.model, s.namespace, m.util_mean, m.samples, m.util_max, m.memory_used_bytes,
               m.power_watts
          FROM usage_series s
          JOIN usage_series_hour h ON h.series_id = s.series_id
           AND h.hour = '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour'
          JOIN usage_series_hour v ON v.series_id = coalesce(h.values_series, h.series_id) AND v.hour = h.hour
          CROSS JOIN LATERAL unnest(v.util_mean, v.samples, v.util_max, v.memory_used_bytes, v.power_watts)
                WITH ORDINALITY m(util_mean, samples, util_max, memory_used_bytes, power_watts, slot)
         WHERE s.cluster = 'bench' AND h.minutes & (1::bigint << (m.slot::int - 1)) <> 0) u
 GROUP BY GROUPING SETS ((pod_uid <> ''), (pod_uid <> '', model), (pod_uid <> '', namespace))
HAVING (GROUPING(model) = 1 OR model <> '') AND (GROUPING(namespace) = 1 OR namespace <> '')
 ORDER BY 1, 2, 3;
