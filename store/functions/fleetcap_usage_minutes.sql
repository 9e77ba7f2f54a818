-- The minutes of a cluster in [from_time, to_time), rows of usage_minute's
-- shape, wherever they are kept: the recent ones (and late ones not yet
-- moved) in usage_minute, the others at rest in usage_series_hour (migration
-- 0037), each minute in exactly one of the two; a float field's hour at rest
-- is its array of floats or, from migration 0043, its decimals
-- (fleetcap_decimal), whichever the move kept. Every reader of the minutes
-- reads them through here. A set-returning SQL function with one SELECT,
-- STABLE: PostgreSQL inlines it into the calling statement, so the window
-- prunes both tables' partitions and the caller's conditions (a node, pod
-- rows only) reach both branches.
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes(cluster_name text, from_time timestamptz, to_time timestamptz)
RETURNS SETOF usage_minute LANGUAGE sql STABLE AS $$
  SELECT u.* FROM usage_minute u
   WHERE u.cluster = cluster_name AND u.minute >= from_time AND u.minute < to_time
  UNION ALL
  SELECT h.cluster, s.device_id, s.pod_uid, h.hour + (m.slot - 1) * interval '1 minute',
         coalesce(m.util_mean, fleetcap_decimal(m.util_mean_digits,
                  CASE WHEN h.values_series IS NULL THEN h.util_mean_form ELSE v.util_mean_form END)),
         coalesce(m.util_max, fleetcap_decimal(m.util_max_digits,
                  CASE WHEN h.values_series IS NULL THEN h.util_max_form ELSE v.util_max_form END)),
         m.memory_used_bytes,
         coalesce(m.power_watts, fleetcap_decimal(m.power_watts_digits,
                  CASE WHEN h.values_series IS NULL THEN h.power_watts_form ELSE v.power_watts_form END)),
         coalesce(m.energy_joules, fleetcap_decimal(m.energy_joules_digits,
                  CASE WHEN h.values_series IS NULL THEN h.energy_joules_form ELSE v.energy_joules_form END)),
         m.samples, s.node, s.model, s.namespace, s.pod, m.memory_total_bytes,
         coalesce(m.sm_active_mean, fleetcap_decimal(m.sm_active_mean_digits,
                  CASE WHEN h.values_series IS NULL THEN h.sm_active_mean_form ELSE v.sm_active_mean_form END)),
         coalesce(m.tensor_active_mean, fleetcap_decimal(m.tensor_active_mean_digits,
                  CASE WHEN h.values_series IS NULL THEN h.tensor_active_mean_form ELSE v.tensor_active_mean_form END)),
         coalesce(m.dram_active_mean, fleetcap_decimal(m.dram_active_mean_digits,
                  CASE WHEN h.values_series IS NULL THEN h.dram_active_mean_form ELSE v.dram_active_mean_form END))
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
           CASE WHEN h.values_series IS NULL THEN h.dram_active_mean ELSE v.dram_active_mean END,
           CASE WHEN h.values_series IS NULL THEN h.util_mean_digits ELSE v.util_mean_digits END,
           CASE WHEN h.values_series IS NULL THEN h.util_max_digits ELSE v.util_max_digits END,
           CASE WHEN h.values_series IS NULL THEN h.power_watts_digits ELSE v.power_watts_digits END,
           CASE WHEN h.values_series IS NULL THEN h.energy_joules_digits ELSE v.energy_joules_digits END,
           CASE WHEN h.values_series IS NULL THEN h.sm_active_mean_digits ELSE v.sm_active_mean_digits END,
           CASE WHEN h.values_series IS NULL THEN h.tensor_active_mean_digits ELSE v.tensor_active_mean_digits END,
           CASE WHEN h.values_series IS NULL THEN h.dram_active_mean_digits ELSE v.dram_active_mean_digits END)
         WITH ORDINALITY m(util_mean, util_max, memory_used_bytes, power_watts, energy_joules, samples,
                           memory_total_bytes, sm_active_mean, tensor_active_mean, dram_active_mean,
                           util_mean_digits, util_max_digits, power_watts_digits, energy_joules_digits,
                           sm_active_mean_digits, tensor_active_mean_digits, dram_active_mean_digits, slot)
   WHERE h.cluster = cluster_name AND h.hour >= date_trunc('hour', from_time, 'UTC') AND h.hour < to_time
     AND h.minutes & (1::bigint << (m.slot::integer - 1)) <> 0
     -- Each minute's instant only in the hours the window cuts.
     AND (h.hour >= from_time OR h.hour + (m.slot - 1) * interval '1 minute' >= from_time)
     AND (h.hour <= to_time - interval '1 hour' OR h.hour + (m.slot - 1) * interval '1 minute' < to_time)
$$;
