-- pgbench script (storage_per_row.sh): the same read as
-- storage_node_minutes_today.sql, the same rows and aggregates, from
-- usage_series and usage_series_hour (storage_by_series_hour.sql): the node's
-- device series, then a row per series and hour of the window, its arrays
-- unnested once (a subscript per minute would decompress an array per
-- minute, and carry the arrays through the sort).
\set n random(1, :nodes)
SELECT (extract(epoch FROM b) * 1000)::bigint,
       sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL)
         / nullif(sum(samples) FILTER (WHERE util_mean IS NOT NULL), 0),
       max(util_max), avg(memory_used_bytes)::float8, avg(power_watts),
       sum(samples) FILTER (WHERE util_mean IS NOT NULL), count(DISTINCT (device_id, pod_uid))
  FROM (SELECT h.hour + (m.slot - 1) * interval '1 minute' AS b, s.device_id, s.pod_uid, m.util_mean, m.samples,
               m.util_max, m.memory_used_bytes, m.power_watts
          FROM usage_series s
          JOIN usage_series_hour h ON h.series_id = s.series_id
           AND h.hour >= '2026-03-02T00:00:00Z' AND h.hour < '2026-03-03T00:00:00Z'
          JOIN usage_series_hour v ON v.series_id = coalesce(h.values_series, h.series_id) AND v.hour = h.hour
          CROSS JOIN LATERAL unnest(v.util_mean, v.samples, v.util_max, v.memory_used_bytes, v.power_watts)
                WITH ORDINALITY m(util_mean, samples, util_max, memory_used_bytes, power_watts, slot)
         WHERE s.cluster = 'bench' AND s.pod_uid = '' AND s.node = (SELECT node FROM bench_nodes WHERE i = :n)
           AND h.minutes & (1::bigint << (m.slot::int - 1)) <> 0) s
 GROUP BY b ORDER BY b;
