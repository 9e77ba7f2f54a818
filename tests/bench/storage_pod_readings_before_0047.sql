-- pgbench script (storage_per_row.sh): what the hourly rollup of the pods'
-- readings read of an hour before migration 0047 (fleetcap_used_milli STRICT,
-- storage_rollups_before_0047.sql), from usage_minute; the baseline of
-- storage_pod_readings_today.sql.
\set h random(0, :hours - 1)
SELECT pod_uid, device_id,
       fleetcap_minute_readings(array_agg((extract(epoch FROM minute - ('2026-03-02T00:00:00Z'::timestamptz
                                                            + :h * interval '1 hour')) / 60)::integer),
                                array_agg(bench_used_milli_before_0047(util_mean)))
  FROM usage_minute
 WHERE cluster = 'bench' AND minute >= '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour'
   AND minute < '2026-03-02T00:00:00Z'::timestamptz + (:h + 1) * interval '1 hour' AND pod_uid <> ''
   AND util_mean IS NOT NULL
 GROUP BY pod_uid, device_id
 ORDER BY 1, 2;
