-- pgbench script (storage_per_row.sh): what the hourly rollup of the pods'
-- readings (usage_hourly, the attribution's usage basis) reads for one hour of
-- the measured minutes, from usage_minute (PgUsageRollupRepository's SELECT,
-- ordered to compare).
\set h random(0, :hours - 1)
SELECT pod_uid, device_id,
       fleetcap_minute_readings(array_agg((extract(epoch FROM minute - ('2026-03-02T00:00:00Z'::timestamptz
                                                            + :h * interval '1 hour')) / 60)::integer),
                                array_agg(fleetcap_used_milli(util_mean)))
  FROM usage_minute
 WHERE cluster = 'bench' AND minute >= '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour'
   AND minute < '2026-03-02T00:00:00Z'::timestamptz + (:h + 1) * interval '1 hour' AND pod_uid <> ''
   AND util_mean IS NOT NULL
 GROUP BY pod_uid, device_id
 ORDER BY 1, 2;
