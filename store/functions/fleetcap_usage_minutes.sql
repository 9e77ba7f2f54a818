-- The minutes of a cluster in [from_time, to_time), rows of usage_minute's
-- shape, wherever they are kept: the recent ones (and late ones not yet
-- moved) in usage_minute, the others at rest in usage_series_hour (migration
-- 0037), each minute in exactly one of the two. Every reader of the minutes
-- reads them through here. A set-returning SQL function with one SELECT,
-- STABLE: PostgreSQL inlines it into the calling statement, so the window
-- prunes both tables' partitions and the caller's conditions (a node, pod
-- rows only) reach both branches.
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes(cluster_name text, from_time timestamptz, to_time timestamptz)
RETURNS SETOF usage_minute LANGUAGE sql STABLE AS $$
  SELECT u.* FROM usage_minute u
   WHERE u.cluster = cluster_name AND u.minute >= from_time AND u.minute < to_time
  UNION ALL
  SELECT h.cluster, s.device_id, s.pod_uid, h.hour + (m.slot - 1) * interval '1 minute', m.util_mean, m.util_max,
         m.memory_used_bytes, m.power_watts, m.energy_joules, m.samples, s.node, s.model, s.namespace, s.pod,
         m.memory_total_bytes, m.sm_active_mean, m.tensor_active_mean, m.dram_active_mean
    FROM usage_series_hour h
    JOIN usage_series s ON s.cluster = h.cluster AND s.series_id = h.series_id
    LEFT JOIN usage_series_hour v
      ON h.values_series IS NOT NULL AND v.cluster = h.cluster AND v.hour = h.hour AND v.series_id = h.values_series
     AND v.hour >= date_trunc('hour', from_time, 'UTC') AND v.hour < to_time
   CROSS JOIN LATERAL unnest(
           CASE WHEN h.values_series IS NULL THEN h.util_mean ELSE v.util_mean END,
           CASE WHEN h.values_series IS NULL THEN h.util_max ELSE v.util_max END,
           CASE WHEN h.values_series IS NULL THEN h.memory_used_bytes ELSE v.memory_used_bytes END,
           CASE WHEN h.values_series IS NULL THEN h.power_watts ELSE v.power_watts END,
           CASE WHEN h.values_series IS NULL THEN h.energy_joules ELSE v.energy_joules END,
           CASE WHEN h.values_series IS NULL THEN h.samples ELSE v.samples END,
           CASE WHEN h.values_series IS NULL THEN h.memory_total_bytes ELSE v.memory_total_bytes END,
           CASE WHEN h.values_series IS NULL THEN h.sm_active_mean ELSE v.sm_active_mean END,
           CASE WHEN h.values_series IS NULL THEN h.tensor_active_mean ELSE v.tensor_active_mean END,
           CASE WHEN h.values_series IS NULL THEN h.dram_active_mean ELSE v.dram_active_mean END)
         WITH ORDINALITY m(util_mean, util_max, memory_used_bytes, power_watts, energy_joules, samples,
                           memory_total_bytes, sm_active_mean, tensor_active_mean, dram_active_mean, slot)
   WHERE h.cluster = cluster_name AND h.hour >= date_trunc('hour', from_time, 'UTC') AND h.hour < to_time
     AND h.minutes & (1::bigint << (m.slot::integer - 1)) <> 0
     -- Each minute's instant only in the hours the window cuts.
     AND (h.hour >= from_time OR h.hour + (m.slot - 1) * interval '1 minute' >= from_time)
     AND (h.hour <= to_time - interval '1 hour' OR h.hour + (m.slot - 1) * interval '1 minute' < to_time)
$$;
