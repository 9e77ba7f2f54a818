-- pgbench script (storage_per_row.sh): the same read as
-- storage_pod_readings_today.sql, once the minutes are at rest (migration
-- 0037), through fleetcap_usage_minutes as PgUsageRollupRepository reads.
\set h random(0, :hours - 1)
SELECT pod_uid, device_id,
       fleetcap_minute_readings(array_agg((extract(epoch FROM minute - ('2026-03-02T00:00:00Z'::timestamptz
                                                            + :h * interval '1 hour')) / 60)::integer),
                                array_agg(fleetcap_used_milli(util_mean)))
  FROM fleetcap_usage_minutes('bench', '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour',
                              '2026-03-02T00:00:00Z'::timestamptz + (:h + 1) * interval '1 hour')
 WHERE pod_uid <> '' AND util_mean IS NOT NULL
 GROUP BY pod_uid, device_id
 ORDER BY 1, 2;
