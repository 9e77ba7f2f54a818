-- pgbench script (storage_per_row.sh): the same pods' readings as
-- storage_pod_readings_today.sql, from usage_series and usage_series_hour:
-- the cluster's pod series, each with its one row of the hour (or its
-- device's), util_mean unnested once.
\set h random(0, :hours - 1)
SELECT s.pod_uid, s.device_id,
       fleetcap_minute_readings(array_agg((m.slot - 1)::integer), array_agg(fleetcap_used_milli(m.util_mean)))
  FROM usage_series s
  JOIN usage_series_hour h ON h.series_id = s.series_id
   AND h.hour = '2026-03-02T00:00:00Z'::timestamptz + :h * interval '1 hour'
  JOIN usage_series_hour v ON v.series_id = coalesce(h.values_series, h.series_id) AND v.hour = h.hour
  CROSS JOIN LATERAL unnest(v.util_mean) WITH ORDINALITY m(util_mean, slot)
 WHERE s.cluster = 'bench' AND s.pod_uid <> '' AND h.minutes & (1::bigint << (m.slot::int - 1)) <> 0
   AND m.util_mean IS NOT NULL
 GROUP BY s.pod_uid, s.device_id
 ORDER BY 1, 2;
