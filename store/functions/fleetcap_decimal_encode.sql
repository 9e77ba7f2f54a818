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
