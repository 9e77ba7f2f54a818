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
