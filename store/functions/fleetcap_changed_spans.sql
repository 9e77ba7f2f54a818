-- The span of [a1, b1) and [a2, b2) that only one of them covers, as two
-- ranges (NULL ends are open): what changing one interval into the other
-- touched.
CREATE OR REPLACE FUNCTION fleetcap_changed_spans(a1 timestamptz, b1 timestamptz, a2 timestamptz, b2 timestamptz)
RETURNS tstzmultirange LANGUAGE sql IMMUTABLE AS $$
  SELECT (tstzmultirange(tstzrange(a1, b1)) - tstzmultirange(tstzrange(a2, b2)))
       + (tstzmultirange(tstzrange(a2, b2)) - tstzmultirange(tstzrange(a1, b1)))
$$;
