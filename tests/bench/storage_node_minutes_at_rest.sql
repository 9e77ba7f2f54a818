-- pgbench script (storage_per_row.sh): the same read as
-- storage_node_minutes_today.sql, once the minutes are at rest (migration
-- 0037), through fleetcap_usage_minutes as PgUsageRepository::Buckets reads.
\set n random(1, :nodes)
SELECT (extract(epoch FROM b) * 1000)::bigint,
       sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL)
         / nullif(sum(samples) FILTER (WHERE util_mean IS NOT NULL), 0),
       max(util_max), avg(memory_used_bytes)::float8, avg(power_watts),
       sum(samples) FILTER (WHERE util_mean IS NOT NULL), count(DISTINCT (device_id, pod_uid))
  FROM (SELECT date_bin('1 minute'::interval, minute, '2000-01-01T00:00:00Z'::timestamptz) AS b, device_id, pod_uid,
               util_mean, samples, util_max, memory_used_bytes, power_watts
          FROM fleetcap_usage_minutes('bench', '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z')
         WHERE pod_uid = '' AND node = (SELECT node FROM bench_nodes WHERE i = :n)) s
 GROUP BY b ORDER BY b;
