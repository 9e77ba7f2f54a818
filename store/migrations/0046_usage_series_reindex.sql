-- A day's indexes at rest are rebuilt once the day has ended and all its
-- hours are moved (docs/scaling.md, "Usage by series and hour"): the move
-- inserts each hour's rows into every series' place in the day's indexes of
-- usage_series_hour, whose leaf pages split and stay part full, a quarter to
-- a half larger than the indexes built once. Each move marks its day, per cluster (a
-- move of one cluster never waits on another's mark); PgUsageCompaction
-- rebuilds a due day's indexes (fleetcap_usage_day_to_reindex) by `REINDEX
-- TABLE CONCURRENTLY` (reads and late moves go on meanwhile) and clears the
-- marks it saw. And the move writes an hour's rows with arrays before the
-- pods' kept as their device's: interleaved, the pages kept some 7 % of the
-- heap empty. Online: the days at rest before are not marked, nothing is
-- rebuilt for them.
CREATE TABLE usage_series_days_to_reindex (
  day       date NOT NULL,
  cluster   text NOT NULL,
  marked_at timestamptz NOT NULL,
  PRIMARY KEY (day, cluster)
);

-- A due day (the text of store/functions/fleetcap_usage_day_to_reindex.sql).
CREATE OR REPLACE FUNCTION fleetcap_usage_day_to_reindex(OUT day date, OUT partition_name text,
                                                         OUT marked_until timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT m.day, 'usage_series_hour_' || to_char(m.day, 'YYYYMMDD'), max(m.marked_at)
    FROM usage_series_days_to_reindex m
   WHERE (m.day + 1)::timestamp AT TIME ZONE 'UTC' + interval '3 hours' <= now()
     AND NOT EXISTS (SELECT 1 FROM usage_hours_to_compact d
                      WHERE d.hour >= m.day::timestamp AT TIME ZONE 'UTC'
                        AND d.hour < (m.day + 1)::timestamp AT TIME ZONE 'UTC')
   GROUP BY m.day
   ORDER BY m.day
   LIMIT 1
$$;

-- A move marks its day (the text of store/functions/fleetcap_compact_usage_hour.sql).
CREATE OR REPLACE FUNCTION fleetcap_compact_usage_hour(cluster_name text, hour_start timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  IF date_trunc('hour', hour_start, 'UTC') <> hour_start THEN
    RAISE EXCEPTION 'hour_start % is not a whole UTC hour', hour_start;
  END IF;
  -- A minute written again is looked for at rest only when more than an
  -- hour old (fleetcap_usage_minutes_changed): an hour moved sooner could
  -- keep a minute in both places.
  IF hour_start > now() - interval '3 hours' THEN
    RAISE EXCEPTION 'hour % ends less than two hours ago: not moved to rest yet', hour_start;
  END IF;
  DELETE FROM usage_hours_to_compact WHERE cluster = cluster_name AND hour = hour_start;
  IF to_regclass('pg_temp.fleetcap_hour_minutes') IS NULL THEN  -- (IF NOT EXISTS would notice each call)
    CREATE TEMP TABLE fleetcap_hour_minutes (LIKE usage_minute) ON COMMIT DELETE ROWS;
  END IF;
  TRUNCATE fleetcap_hour_minutes;
  PERFORM set_config('fleetcap.moving_minutes', 'on', true);
  WITH m AS (
    DELETE FROM usage_minute
     WHERE cluster = cluster_name AND minute >= hour_start AND minute < hour_start + interval '1 hour'
       AND date_trunc('minute', minute, 'UTC') = minute
    RETURNING *)
  INSERT INTO fleetcap_hour_minutes SELECT * FROM m;
  GET DIAGNOSTICS moved = ROW_COUNT;
  PERFORM set_config('fleetcap.moving_minutes', 'off', true);
  IF moved = 0 THEN
    PERFORM fleetcap_convert_usage_hour(cluster_name, hour_start);
    PERFORM fleetcap_release_moved_usage_day((hour_start AT TIME ZONE 'UTC')::date);
    PERFORM fleetcap_release_moved_usage_hour(h)
       FROM generate_series(hour_start - interval '1 day', hour_start, interval '1 hour') h;
    RETURN 0;
  END IF;
  -- A temporary table has no statistics until analysed: planned without,
  -- the joins below would be nested loops over thousands of rows.
  ANALYZE fleetcap_hour_minutes;

  -- The hour rows of the devices moved, decoded as fleetcap_usage_minutes
  -- decodes them, from the rows this statement deletes (a read through
  -- that function would also see minutes written to usage_minute since).
  WITH old AS (
    DELETE FROM usage_series_hour h USING usage_series s
     WHERE h.cluster = cluster_name AND h.hour = hour_start AND s.cluster = h.cluster AND s.series_id = h.series_id
       AND s.device_id IN (SELECT DISTINCT device_id FROM fleetcap_hour_minutes)
    RETURNING h.*, s.device_id, s.pod_uid, s.node, s.model, s.namespace, s.pod)
  INSERT INTO fleetcap_hour_minutes
  SELECT o.cluster, o.device_id, o.pod_uid, hour_start + (m.slot - 1) * interval '1 minute',
         coalesce(m.util_mean, fleetcap_decimal(m.util_mean_digits,
                  CASE WHEN o.values_series IS NULL THEN o.util_mean_form ELSE v.util_mean_form END)),
         coalesce(m.util_max, fleetcap_decimal(m.util_max_digits,
                  CASE WHEN o.values_series IS NULL THEN o.util_max_form ELSE v.util_max_form END)),
         m.memory_used_bytes,
         coalesce(m.power_watts, fleetcap_decimal(m.power_watts_digits,
                  CASE WHEN o.values_series IS NULL THEN o.power_watts_form ELSE v.power_watts_form END)),
         coalesce(m.energy_joules, fleetcap_decimal(m.energy_joules_digits,
                  CASE WHEN o.values_series IS NULL THEN o.energy_joules_form ELSE v.energy_joules_form END)),
         m.samples, o.node, o.model, o.namespace, o.pod, m.memory_total_bytes,
         coalesce(m.sm_active_mean, fleetcap_decimal(m.sm_active_mean_digits,
                  CASE WHEN o.values_series IS NULL THEN o.sm_active_mean_form ELSE v.sm_active_mean_form END)),
         coalesce(m.tensor_active_mean, fleetcap_decimal(m.tensor_active_mean_digits,
                  CASE WHEN o.values_series IS NULL THEN o.tensor_active_mean_form ELSE v.tensor_active_mean_form END)),
         coalesce(m.dram_active_mean, fleetcap_decimal(m.dram_active_mean_digits,
                  CASE WHEN o.values_series IS NULL THEN o.dram_active_mean_form ELSE v.dram_active_mean_form END))
    FROM old o
    LEFT JOIN old v ON v.series_id = o.values_series
   CROSS JOIN LATERAL unnest(
           CASE WHEN o.values_series IS NULL THEN o.util_mean ELSE v.util_mean END,
           CASE WHEN o.values_series IS NULL THEN o.util_max ELSE v.util_max END,
           CASE WHEN o.values_series IS NULL THEN o.memory_used_bytes ELSE v.memory_used_bytes END,
           CASE WHEN o.values_series IS NULL THEN o.power_watts ELSE v.power_watts END,
           CASE WHEN o.values_series IS NULL THEN o.energy_joules ELSE v.energy_joules END,
           CASE WHEN o.values_series IS NULL THEN o.samples ELSE v.samples END,
           CASE WHEN o.values_series IS NULL THEN o.memory_total_bytes ELSE v.memory_total_bytes END,
           CASE WHEN o.values_series IS NULL THEN o.sm_active_mean ELSE v.sm_active_mean END,
           CASE WHEN o.values_series IS NULL THEN o.tensor_active_mean ELSE v.tensor_active_mean END,
           CASE WHEN o.values_series IS NULL THEN o.dram_active_mean ELSE v.dram_active_mean END,
           CASE WHEN o.values_series IS NULL THEN o.util_mean_digits ELSE v.util_mean_digits END,
           CASE WHEN o.values_series IS NULL THEN o.util_max_digits ELSE v.util_max_digits END,
           CASE WHEN o.values_series IS NULL THEN o.power_watts_digits ELSE v.power_watts_digits END,
           CASE WHEN o.values_series IS NULL THEN o.energy_joules_digits ELSE v.energy_joules_digits END,
           CASE WHEN o.values_series IS NULL THEN o.sm_active_mean_digits ELSE v.sm_active_mean_digits END,
           CASE WHEN o.values_series IS NULL THEN o.tensor_active_mean_digits ELSE v.tensor_active_mean_digits END,
           CASE WHEN o.values_series IS NULL THEN o.dram_active_mean_digits ELSE v.dram_active_mean_digits END)
         WITH ORDINALITY m(util_mean, util_max, memory_used_bytes, power_watts, energy_joules, samples,
                           memory_total_bytes, sm_active_mean, tensor_active_mean, dram_active_mean,
                           util_mean_digits, util_max_digits, power_watts_digits, energy_joules_digits,
                           sm_active_mean_digits, tensor_active_mean_digits, dram_active_mean_digits, slot)
   WHERE o.minutes & (1::bigint << (m.slot::integer - 1)) <> 0
     AND NOT EXISTS (SELECT 1 FROM fleetcap_hour_minutes n
                      WHERE n.device_id = o.device_id AND n.pod_uid = o.pod_uid
                        AND n.minute = hour_start + (m.slot - 1) * interval '1 minute');

  INSERT INTO usage_series (cluster, device_id, pod_uid, node, model, namespace, pod)
  SELECT DISTINCT cluster, device_id, pod_uid, node, model, namespace, pod FROM fleetcap_hour_minutes
  ON CONFLICT DO NOTHING;

  -- The hour's minutes by series id and slot, analysed too (the statistics
  -- of usage_series may not know its newest series yet).
  IF to_regclass('pg_temp.fleetcap_hour_slots') IS NULL THEN
    CREATE TEMP TABLE fleetcap_hour_slots (
      series_id integer, device_id text, pod_uid text, slot integer, samples integer, util_mean double precision,
      util_max double precision, memory_used_bytes bigint, power_watts double precision, energy_joules double precision,
      memory_total_bytes bigint, sm_active_mean double precision, tensor_active_mean double precision,
      dram_active_mean double precision) ON COMMIT DELETE ROWS;
  END IF;
  TRUNCATE fleetcap_hour_slots;
  INSERT INTO fleetcap_hour_slots
  SELECT s.series_id, u.device_id, u.pod_uid, (extract(epoch FROM u.minute - hour_start) / 60)::integer,
         u.samples, u.util_mean, u.util_max, u.memory_used_bytes, u.power_watts, u.energy_joules,
         u.memory_total_bytes, u.sm_active_mean, u.tensor_active_mean, u.dram_active_mean
    FROM fleetcap_hour_minutes u
    JOIN usage_series s
      ON s.cluster = cluster_name AND s.device_id = u.device_id AND s.pod_uid = u.pod_uid AND s.node = u.node
     AND s.model = u.model AND s.namespace = u.namespace AND s.pod = u.pod;
  ANALYZE fleetcap_hour_slots;

  WITH slots AS (
    SELECT * FROM fleetcap_hour_slots
  ), series AS (
    SELECT series_id, bit_or(1::bigint << slot) AS minutes, count(*) AS slots FROM slots GROUP BY series_id
  ), pod_as_device AS (
    -- float8send tells 0 from -0 and one NaN from another.
    SELECT p.series_id, min(d.series_id) AS values_series
      FROM slots p
      JOIN slots d ON d.device_id = p.device_id AND d.pod_uid = '' AND d.slot = p.slot
      JOIN series c ON c.series_id = p.series_id
     WHERE p.pod_uid <> ''
     GROUP BY p.series_id
    HAVING count(DISTINCT d.series_id) = 1 AND count(*) = max(c.slots)
       AND bool_and(p.samples = d.samples
           AND float8send(p.util_mean) IS NOT DISTINCT FROM float8send(d.util_mean)
           AND float8send(p.util_max) IS NOT DISTINCT FROM float8send(d.util_max)
           AND p.memory_used_bytes IS NOT DISTINCT FROM d.memory_used_bytes
           AND float8send(p.power_watts) IS NOT DISTINCT FROM float8send(d.power_watts)
           AND float8send(p.energy_joules) IS NOT DISTINCT FROM float8send(d.energy_joules)
           AND p.memory_total_bytes IS NOT DISTINCT FROM d.memory_total_bytes
           AND float8send(p.sm_active_mean) IS NOT DISTINCT FROM float8send(d.sm_active_mean)
           AND float8send(p.tensor_active_mean) IS NOT DISTINCT FROM float8send(d.tensor_active_mean)
           AND float8send(p.dram_active_mean) IS NOT DISTINCT FROM float8send(d.dram_active_mean))
  ), own AS (
    -- The 60 minutes of each series that keeps its own values, NULL where none.
    SELECT k.series_id, array_agg(s.samples ORDER BY g.i) AS samples, array_agg(s.util_mean ORDER BY g.i) AS util_mean,
           array_agg(s.util_max ORDER BY g.i) AS util_max,
           array_agg(s.memory_used_bytes ORDER BY g.i) AS memory_used_bytes,
           array_agg(s.power_watts ORDER BY g.i) AS power_watts,
           array_agg(s.energy_joules ORDER BY g.i) AS energy_joules,
           array_agg(s.memory_total_bytes ORDER BY g.i) AS memory_total_bytes,
           array_agg(s.sm_active_mean ORDER BY g.i) AS sm_active_mean,
           array_agg(s.tensor_active_mean ORDER BY g.i) AS tensor_active_mean,
           array_agg(s.dram_active_mean ORDER BY g.i) AS dram_active_mean
      FROM series k
     CROSS JOIN generate_series(0, 59) g(i)
      LEFT JOIN slots s ON s.series_id = k.series_id AND s.slot = g.i
     WHERE NOT EXISTS (SELECT 1 FROM pod_as_device o WHERE o.series_id = k.series_id)
     GROUP BY k.series_id
  ), decimals AS MATERIALIZED (
    -- Each float field's hour in decimals where it fits (migration 0043).
    SELECT a.*, fleetcap_decimal_encode(a.util_mean) AS util_mean_decimals,
           fleetcap_decimal_encode(a.util_max) AS util_max_decimals,
           fleetcap_decimal_encode(a.power_watts) AS power_watts_decimals,
           fleetcap_decimal_encode(a.energy_joules) AS energy_joules_decimals,
           fleetcap_decimal_encode(a.sm_active_mean) AS sm_active_mean_decimals,
           fleetcap_decimal_encode(a.tensor_active_mean) AS tensor_active_mean_decimals,
           fleetcap_decimal_encode(a.dram_active_mean) AS dram_active_mean_decimals
      FROM own a
  )
  INSERT INTO usage_series_hour (cluster, hour, series_id, minutes, values_series, samples, util_mean, util_max,
                                 memory_used_bytes, power_watts, energy_joules, memory_total_bytes, sm_active_mean,
                                 tensor_active_mean, dram_active_mean, util_mean_form, util_mean_digits,
                                 util_max_form, util_max_digits, power_watts_form, power_watts_digits,
                                 energy_joules_form, energy_joules_digits, sm_active_mean_form, sm_active_mean_digits,
                                 tensor_active_mean_form, tensor_active_mean_digits, dram_active_mean_form,
                                 dram_active_mean_digits)
  SELECT cluster_name, hour_start, k.series_id, k.minutes, o.values_series, a.samples,
         CASE WHEN (a.util_mean_decimals).form IS NULL THEN a.util_mean END,
         CASE WHEN (a.util_max_decimals).form IS NULL THEN a.util_max END,
         a.memory_used_bytes,
         CASE WHEN (a.power_watts_decimals).form IS NULL THEN a.power_watts END,
         CASE WHEN (a.energy_joules_decimals).form IS NULL THEN a.energy_joules END,
         a.memory_total_bytes,
         CASE WHEN (a.sm_active_mean_decimals).form IS NULL THEN a.sm_active_mean END,
         CASE WHEN (a.tensor_active_mean_decimals).form IS NULL THEN a.tensor_active_mean END,
         CASE WHEN (a.dram_active_mean_decimals).form IS NULL THEN a.dram_active_mean END,
         (a.util_mean_decimals).form, (a.util_mean_decimals).digits,
         (a.util_max_decimals).form, (a.util_max_decimals).digits,
         (a.power_watts_decimals).form, (a.power_watts_decimals).digits,
         (a.energy_joules_decimals).form, (a.energy_joules_decimals).digits,
         (a.sm_active_mean_decimals).form, (a.sm_active_mean_decimals).digits,
         (a.tensor_active_mean_decimals).form, (a.tensor_active_mean_decimals).digits,
         (a.dram_active_mean_decimals).form, (a.dram_active_mean_decimals).digits
    FROM series k
    LEFT JOIN pod_as_device o ON o.series_id = k.series_id
    LEFT JOIN decimals a ON a.series_id = k.series_id
   -- The rows with arrays first, then the pods' kept as their device's (a
   -- few dozen bytes): interleaved, each page kept the space a large row
   -- did not fit in, some 7 % of the heap.
   ORDER BY o.values_series IS NOT NULL, k.series_id;
  -- The day's indexes at rest grew (migration 0046).
  INSERT INTO usage_series_days_to_reindex (day, cluster, marked_at)
  VALUES ((hour_start AT TIME ZONE 'UTC')::date, cluster_name, now())
  ON CONFLICT (day, cluster) DO UPDATE SET marked_at = excluded.marked_at;
  PERFORM fleetcap_convert_usage_hour(cluster_name, hour_start);
  PERFORM fleetcap_release_moved_usage_day((hour_start AT TIME ZONE 'UTC')::date);
  PERFORM fleetcap_release_moved_usage_hour(h)
     FROM generate_series(hour_start - interval '1 day', hour_start, interval '1 hour') h;
  RETURN moved;
END $$;
