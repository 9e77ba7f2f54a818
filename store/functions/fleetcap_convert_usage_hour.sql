-- Converts one hour of a cluster's rows at rest to decimals (migration
-- 0043): each float field's array of a row that fleetcap_decimal_encode can
-- keep in decimals, the others as they are. The hours at rest before 0043
-- are marked due (usage_hours_to_compact) and converted by
-- fleetcap_compact_usage_hour in the background, newest first, read as
-- floats or decimals meanwhile (fleetcap_usage_minutes). Returns the rows
-- rewritten.
CREATE OR REPLACE FUNCTION fleetcap_convert_usage_hour(cluster_name text, hour_start timestamptz) RETURNS bigint
LANGUAGE sql AS $$
  WITH decimals AS MATERIALIZED (
    SELECT h.series_id,
           fleetcap_decimal_encode(h.util_mean) AS util_mean_decimals,
           fleetcap_decimal_encode(h.util_max) AS util_max_decimals,
           fleetcap_decimal_encode(h.power_watts) AS power_watts_decimals,
           fleetcap_decimal_encode(h.energy_joules) AS energy_joules_decimals,
           fleetcap_decimal_encode(h.sm_active_mean) AS sm_active_mean_decimals,
           fleetcap_decimal_encode(h.tensor_active_mean) AS tensor_active_mean_decimals,
           fleetcap_decimal_encode(h.dram_active_mean) AS dram_active_mean_decimals
      FROM usage_series_hour h
     WHERE h.cluster = cluster_name AND h.hour = hour_start
       AND (h.util_mean IS NOT NULL OR h.util_max IS NOT NULL OR h.power_watts IS NOT NULL OR h.energy_joules IS NOT NULL
            OR h.sm_active_mean IS NOT NULL OR h.tensor_active_mean IS NOT NULL OR h.dram_active_mean IS NOT NULL)
  ), converted AS (
    UPDATE usage_series_hour h
       SET util_mean = CASE WHEN (d.util_mean_decimals).form IS NULL THEN h.util_mean END,
           util_mean_form = coalesce((d.util_mean_decimals).form, h.util_mean_form),
           util_mean_digits = coalesce((d.util_mean_decimals).digits, h.util_mean_digits),
           util_max = CASE WHEN (d.util_max_decimals).form IS NULL THEN h.util_max END,
           util_max_form = coalesce((d.util_max_decimals).form, h.util_max_form),
           util_max_digits = coalesce((d.util_max_decimals).digits, h.util_max_digits),
           power_watts = CASE WHEN (d.power_watts_decimals).form IS NULL THEN h.power_watts END,
           power_watts_form = coalesce((d.power_watts_decimals).form, h.power_watts_form),
           power_watts_digits = coalesce((d.power_watts_decimals).digits, h.power_watts_digits),
           energy_joules = CASE WHEN (d.energy_joules_decimals).form IS NULL THEN h.energy_joules END,
           energy_joules_form = coalesce((d.energy_joules_decimals).form, h.energy_joules_form),
           energy_joules_digits = coalesce((d.energy_joules_decimals).digits, h.energy_joules_digits),
           sm_active_mean = CASE WHEN (d.sm_active_mean_decimals).form IS NULL THEN h.sm_active_mean END,
           sm_active_mean_form = coalesce((d.sm_active_mean_decimals).form, h.sm_active_mean_form),
           sm_active_mean_digits = coalesce((d.sm_active_mean_decimals).digits, h.sm_active_mean_digits),
           tensor_active_mean = CASE WHEN (d.tensor_active_mean_decimals).form IS NULL THEN h.tensor_active_mean END,
           tensor_active_mean_form = coalesce((d.tensor_active_mean_decimals).form, h.tensor_active_mean_form),
           tensor_active_mean_digits = coalesce((d.tensor_active_mean_decimals).digits, h.tensor_active_mean_digits),
           dram_active_mean = CASE WHEN (d.dram_active_mean_decimals).form IS NULL THEN h.dram_active_mean END,
           dram_active_mean_form = coalesce((d.dram_active_mean_decimals).form, h.dram_active_mean_form),
           dram_active_mean_digits = coalesce((d.dram_active_mean_decimals).digits, h.dram_active_mean_digits)
      FROM decimals d
     WHERE h.cluster = cluster_name AND h.hour = hour_start AND h.series_id = d.series_id
       AND ((d.util_mean_decimals).form IS NOT NULL OR (d.util_max_decimals).form IS NOT NULL
            OR (d.power_watts_decimals).form IS NOT NULL OR (d.energy_joules_decimals).form IS NOT NULL
            OR (d.sm_active_mean_decimals).form IS NOT NULL OR (d.tensor_active_mean_decimals).form IS NOT NULL
            OR (d.dram_active_mean_decimals).form IS NOT NULL)
    RETURNING 1
  )
  SELECT count(*) FROM converted
$$;
