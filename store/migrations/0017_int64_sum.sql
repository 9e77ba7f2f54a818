-- sum(bigint) adds in numeric: exact, but most of the time a chargeback
-- report's read spent went there. fleetcap_sum_int64 adds in bigint with
-- int8pl, which refuses to overflow (SQLSTATE 22003, "bigint out of
-- range"): as exact, several times faster, and a sum past int64 is still an
-- error, never a wrapped number. Like sum(), it is NULL over no rows.
CREATE AGGREGATE fleetcap_sum_int64(bigint) (
  SFUNC = int8pl,
  STYPE = bigint,
  COMBINEFUNC = int8pl,
  PARALLEL = SAFE
);
