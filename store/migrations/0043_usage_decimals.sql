-- The floats at rest in decimals (docs/scaling.md, "Usage by series and
-- hour"). The values a device reports are decimals (dcgm-exporter's power
-- with 3 places, ratios with 6, percentages x 0.01) and their means over a
-- minute's samples; as floats, lz4 finds nothing to shrink in their bits
-- (500 bytes an hour of a ratio). Moved to rest, an hour's values of a float
-- field whose every value is an integer over a power of ten, give or take a
-- few units of the hour's finest binary place (what a mean's arithmetic
-- leaves), keep those integers instead: `<field>_digits`, an integer a
-- minute (NULL where none), read with `<field>_form` through
-- fleetcap_decimal, and the field's array of floats is NULL. An hour whose
-- values do not fit (-0, NaN, infinities, subnormals, more than 15 decimals,
-- beyond 2^53) keeps its floats. Encoded by fleetcap_compact_usage_hour
-- (fleetcap_decimal_encode, which keeps only what decodes bit for bit), read
-- by fleetcap_usage_minutes. The hours already at rest are read as before,
-- beside the new ones, and converted in the background: each is marked due
-- here (usage_hours_to_compact), and moving an hour converts its rows
-- (fleetcap_convert_usage_hour), newest first, as the optimizer moves hours.
CREATE TYPE fleetcap_decimals AS (form bigint, digits integer[]);

ALTER TABLE usage_series_hour
  ADD COLUMN util_mean_form bigint, ADD COLUMN util_mean_digits integer[],
  ADD COLUMN util_max_form bigint, ADD COLUMN util_max_digits integer[],
  ADD COLUMN power_watts_form bigint, ADD COLUMN power_watts_digits integer[],
  ADD COLUMN energy_joules_form bigint, ADD COLUMN energy_joules_digits integer[],
  ADD COLUMN sm_active_mean_form bigint, ADD COLUMN sm_active_mean_digits integer[],
  ADD COLUMN tensor_active_mean_form bigint, ADD COLUMN tensor_active_mean_digits integer[],
  ADD COLUMN dram_active_mean_form bigint, ADD COLUMN dram_active_mean_digits integer[];
ALTER TABLE usage_series_hour
  ALTER util_mean_digits SET STORAGE MAIN, ALTER util_mean_digits SET COMPRESSION lz4,
  ALTER util_max_digits SET STORAGE MAIN, ALTER util_max_digits SET COMPRESSION lz4,
  ALTER power_watts_digits SET STORAGE MAIN, ALTER power_watts_digits SET COMPRESSION lz4,
  ALTER energy_joules_digits SET STORAGE MAIN, ALTER energy_joules_digits SET COMPRESSION lz4,
  ALTER sm_active_mean_digits SET STORAGE MAIN, ALTER sm_active_mean_digits SET COMPRESSION lz4,
  ALTER tensor_active_mean_digits SET STORAGE MAIN, ALTER tensor_active_mean_digits SET COMPRESSION lz4,
  ALTER dram_active_mean_digits SET STORAGE MAIN, ALTER dram_active_mean_digits SET COMPRESSION lz4;

-- One minute's value at rest in decimals (migration 0043): the float a
-- writer stored as i / 10^e, corrected by k units of the hour's finest
-- binary place (2^q) where the writer's arithmetic (a mean of samples, a
-- product by a scale) left it a few units away from that decimal. `digit`
-- holds (i - base) << k_bits | (k + 2^(k_bits - 1)); `form` packs the hour's
-- e (bits 0-3), k_bits (4-8), q + 1100 (9-20) and base (21 on, signed).
-- Division of an integer below 2^53 by an exact power of ten is correctly
-- rounded, and k * 2^q is exact, so the sum is the bits the encoder checked
-- (fleetcap_decimal_encode decodes every value through here and keeps only
-- what comes back bit for bit). A SQL function of one expression whose
-- arguments are columns: PostgreSQL inlines it into the reading statement.
CREATE OR REPLACE FUNCTION fleetcap_decimal(digit integer, form bigint) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((form >> 21) + (digit >> ((form >> 4) & 31)::integer))::double precision
         / ('{1e0,1e1,1e2,1e3,1e4,1e5,1e6,1e7,1e8,1e9,1e10,1e11,1e12,1e13,1e14,1e15}'::double precision[])
             [(form & 15) + 1]
         + ((digit & ((1 << ((form >> 4) & 31)::integer) - 1)) - ((1 << ((form >> 4) & 31)::integer) >> 1))
           * 2::double precision ^ (((form >> 9) & 4095) - 1100)
$$;

-- An hour's values of one field in decimals (migration 0043,
-- fleetcap_decimal): the exponent e is the most decimals any value shows at
-- 15 significant digits, each value's integer i = round(v * 10^e), and what
-- the writer's arithmetic added to that decimal (a mean's last bits) is k
-- units of the finest last bit among the values it was added to. NULL where the hour does not fit:
-- no value, NaN or an infinity, more than 15 decimals (subnormals), an
-- integer beyond 2^53 (or a base beyond 2^42, a digit beyond 2^31), or any
-- value that does not decode bit for bit through fleetcap_decimal (-0, whose
-- decimal is 0): such an hour keeps its floats.
CREATE OR REPLACE FUNCTION fleetcap_decimal_encode(vals double precision[]) RETURNS fleetcap_decimals
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH v AS (
    SELECT u.slot, u.x FROM unnest(vals) WITH ORDINALITY u(x, slot)
  ), hour AS (
    SELECT max(CASE WHEN x = 0 THEN 0 ELSE scale(trim_scale(x::numeric)) END) AS e
      FROM v
     HAVING count(x) > 0 AND bool_and(x IS NULL OR x NOT IN ('NaN', 'Infinity', '-Infinity'))
  ), ints AS (
    -- Each value's integer, and what its float adds to that decimal.
    SELECT v.slot, v.x, i.i, v.x - i.i::double precision / p.p10 AS rest
      FROM hour h
     CROSS JOIN LATERAL (SELECT ('{1e0,1e1,1e2,1e3,1e4,1e5,1e6,1e7,1e8,1e9,1e10,1e11,1e12,1e13,1e14,1e15}'
                                 ::double precision[])[h.e + 1] AS p10) p
     CROSS JOIN v
     -- (compared by division: a product may overflow, which is an error)
     CROSS JOIN LATERAL (SELECT CASE WHEN abs(v.x) < 2::double precision ^ 53 / p.p10 THEN round(v.x * p.p10)::bigint
                                END AS i) i
     WHERE h.e <= 15
  ), unit AS (
    -- The finest last bit of the values that are not their decimal: a
    -- normal value's last bit is 2^(biased exponent - 1075), a subnormal's
    -- 2^-1074 (the values that are their decimal, some of them much
    -- smaller, would only make every k longer).
    SELECT greatest(coalesce(min(((get_byte(float8send(x), 0) & 127) << 4) | (get_byte(float8send(x), 1) >> 4))
                               FILTER (WHERE rest <> 0), 1075), 1) - 1075 AS q
      FROM ints
  ), shape AS (
    SELECT min(i.i) AS base, max(i.i) - min(i.i) AS span, max(abs(i.rest / 2::double precision ^ u.q)) AS k_max,
           bool_and(i.x IS NULL OR (i.i IS NOT NULL AND i.rest / 2::double precision ^ u.q
                                                        = trunc(i.rest / 2::double precision ^ u.q))) AS whole
      FROM ints i CROSS JOIN unit u
  ), form AS (
    SELECT s.base, s.span,
           CASE WHEN s.k_max = 0 THEN 0 ELSE floor(log(2, s.k_max::numeric))::integer + 2 END AS k_bits
      FROM shape s
     WHERE s.whole AND s.k_max < 2 ^ 20 AND abs(s.base) < 2::bigint ^ 42
  ), encoded AS (
    SELECT h.e + (f.k_bits << 4) + ((u.q + 1100)::bigint << 9) + (f.base << 21) AS form,
           array_agg(((i.i - f.base) << f.k_bits) + (i.rest / 2::double precision ^ u.q)::bigint
                     + ((1::bigint << f.k_bits) >> 1) ORDER BY i.slot) AS digits
      FROM hour h CROSS JOIN unit u CROSS JOIN form f CROSS JOIN ints i
     WHERE (f.span::numeric + 1) * 2 ^ f.k_bits <= 2 ^ 31
     GROUP BY h.e, u.q, f.k_bits, f.base
  )
  SELECT ROW(e.form, e.digits::integer[])::fleetcap_decimals
    FROM encoded e
   WHERE (SELECT bool_and(float8send(fleetcap_decimal(d.digit, e.form)) IS NOT DISTINCT FROM float8send(vals[d.slot]))
            FROM unnest(e.digits::integer[]) WITH ORDINALITY d(digit, slot))
$$;

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

-- Moves one hour of a cluster's minutes from usage_minute to rest in
-- usage_series_hour (migration 0037): a row per series and hour, the minutes
-- present as a bitmask and each field as an array of the hour's 60 minutes,
-- a float field's in decimals where its values fit (fleetcap_decimal_encode,
-- migration 0043), as floats where not. The hour's rows at rest of every
-- device with a minute moved are decoded and built again with them (a
-- minute moved replaces its own), so minutes that come late rewrite their
-- hour, and its rows at rest in floats that can be decimals are converted
-- (fleetcap_convert_usage_hour: the hours at rest before migration 0043 are
-- due, and moved with nothing to move). A pod's series whose every minute of
-- the hour has the very bits of its device's minute (one pod on a whole
-- GPU) keeps no arrays: `values_series` names the device's series. Moving is
-- no change to the minutes: the statement triggers on usage_minute leave
-- the rollups alone (fleetcap.moving_minutes). Only whole minutes are
-- moved (the writers set aside any other). A day whose every hour moved
-- gives its space back (fleetcap_release_moved_usage_day). Returns the
-- minutes moved.
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
   ORDER BY k.series_id;
  PERFORM fleetcap_convert_usage_hour(cluster_name, hour_start);
  PERFORM fleetcap_release_moved_usage_day((hour_start AT TIME ZONE 'UTC')::date);
  RETURN moved;
END $$;

-- Every hour at rest is due: moved with nothing to move, its rows are
-- converted. The hours are listed from the cluster's hourly rollup, which
-- has every hour with minutes (or its change is due), as migration 0037 did:
-- a scan of usage_series_hour itself would hold the lock this migration
-- takes on it for as long as the whole history takes to read.
INSERT INTO usage_hours_to_compact (cluster, hour)
SELECT cluster, hour FROM usage_cluster_hourly
UNION
SELECT cluster, hour FROM usage_cluster_hour_changes
ON CONFLICT DO NOTHING;
