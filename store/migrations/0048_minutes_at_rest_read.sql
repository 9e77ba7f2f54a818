-- The minutes at rest are read in about two thirds of the time
-- (docs/benchmarks.md, "The rollups' reads of an hour"): fleetcap_usage_minutes
-- unnests an hour's arrays in its select list, in step with the minute's
-- slot, where unnest in FROM put each array's sixty values of every row into a
-- tuple store of its own first. The same rows, bit for bit.

-- The minutes (the text of store/functions/fleetcap_usage_minutes.sql).
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes(cluster_name text, from_time timestamptz, to_time timestamptz)
RETURNS SETOF usage_minute LANGUAGE sql STABLE AS $$
  SELECT u.* FROM usage_minute u
   WHERE u.cluster = cluster_name AND u.minute >= from_time AND u.minute < to_time
  UNION ALL
  SELECT m.cluster, m.device_id, m.pod_uid, m.hour + (m.slot - 1) * interval '1 minute',
         coalesce(m.util_mean, fleetcap_decimal(m.util_mean_digits, m.util_mean_form)),
         coalesce(m.util_max, fleetcap_decimal(m.util_max_digits, m.util_max_form)),
         m.memory_used_bytes,
         coalesce(m.power_watts, fleetcap_decimal(m.power_watts_digits, m.power_watts_form)),
         coalesce(m.energy_joules, fleetcap_decimal(m.energy_joules_digits, m.energy_joules_form)),
         m.samples, m.node, m.model, m.namespace, m.pod, m.memory_total_bytes,
         coalesce(m.sm_active_mean, fleetcap_decimal(m.sm_active_mean_digits, m.sm_active_mean_form)),
         coalesce(m.tensor_active_mean, fleetcap_decimal(m.tensor_active_mean_digits, m.tensor_active_mean_form)),
         coalesce(m.dram_active_mean, fleetcap_decimal(m.dram_active_mean_digits, m.dram_active_mean_form))
    FROM (SELECT h.cluster, s.device_id, s.pod_uid, h.hour, h.minutes, s.node, s.model, s.namespace, s.pod,
                 CASE WHEN h.values_series IS NULL THEN h.util_mean_form ELSE v.util_mean_form END AS util_mean_form,
                 CASE WHEN h.values_series IS NULL THEN h.util_max_form ELSE v.util_max_form END AS util_max_form,
                 CASE WHEN h.values_series IS NULL THEN h.power_watts_form ELSE v.power_watts_form END
                   AS power_watts_form,
                 CASE WHEN h.values_series IS NULL THEN h.energy_joules_form ELSE v.energy_joules_form END
                   AS energy_joules_form,
                 CASE WHEN h.values_series IS NULL THEN h.sm_active_mean_form ELSE v.sm_active_mean_form END
                   AS sm_active_mean_form,
                 CASE WHEN h.values_series IS NULL THEN h.tensor_active_mean_form ELSE v.tensor_active_mean_form END
                   AS tensor_active_mean_form,
                 CASE WHEN h.values_series IS NULL THEN h.dram_active_mean_form ELSE v.dram_active_mean_form END
                   AS dram_active_mean_form,
                 generate_series(1, 60) AS slot,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.util_mean ELSE v.util_mean END) AS util_mean,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.util_max ELSE v.util_max END) AS util_max,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.memory_used_bytes ELSE v.memory_used_bytes END)
                   AS memory_used_bytes,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.power_watts ELSE v.power_watts END) AS power_watts,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.energy_joules ELSE v.energy_joules END)
                   AS energy_joules,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.samples ELSE v.samples END) AS samples,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.memory_total_bytes ELSE v.memory_total_bytes END)
                   AS memory_total_bytes,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.sm_active_mean ELSE v.sm_active_mean END)
                   AS sm_active_mean,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.tensor_active_mean ELSE v.tensor_active_mean END)
                   AS tensor_active_mean,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.dram_active_mean ELSE v.dram_active_mean END)
                   AS dram_active_mean,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.util_mean_digits ELSE v.util_mean_digits END)
                   AS util_mean_digits,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.util_max_digits ELSE v.util_max_digits END)
                   AS util_max_digits,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.power_watts_digits ELSE v.power_watts_digits END)
                   AS power_watts_digits,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.energy_joules_digits ELSE v.energy_joules_digits END)
                   AS energy_joules_digits,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.sm_active_mean_digits ELSE v.sm_active_mean_digits END)
                   AS sm_active_mean_digits,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.tensor_active_mean_digits
                        ELSE v.tensor_active_mean_digits END)
                   AS tensor_active_mean_digits,
                 unnest(CASE WHEN h.values_series IS NULL THEN h.dram_active_mean_digits
                        ELSE v.dram_active_mean_digits END)
                   AS dram_active_mean_digits
            FROM usage_series_hour h
            JOIN usage_series s ON s.cluster = h.cluster AND s.series_id = h.series_id
            LEFT JOIN usage_series_hour v
              ON h.values_series IS NOT NULL AND v.cluster = h.cluster AND v.hour = h.hour
             AND v.series_id = h.values_series
             AND v.hour >= date_trunc('hour', from_time, 'UTC') AND v.hour < to_time
           WHERE h.cluster = cluster_name AND h.hour >= date_trunc('hour', from_time, 'UTC') AND h.hour < to_time) m
   WHERE m.minutes & (1::bigint << (m.slot - 1)) <> 0
     -- Each minute's instant only in the hours the window cuts.
     AND (m.hour >= from_time OR m.hour + (m.slot - 1) * interval '1 minute' >= from_time)
     AND (m.hour <= to_time - interval '1 hour' OR m.hour + (m.slot - 1) * interval '1 minute' < to_time)
$$;
