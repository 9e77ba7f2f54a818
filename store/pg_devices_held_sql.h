#pragma once
// The statement of PgChargebackRepository's read of the devices held
// (pg_chargeback_devices.cc), here so that its plans are tested
// (tests/store/devices_held_plans_test.cc): a node's rows are read by the
// *_by_node indexes and a day's by hour, never by a scan of every row kept.

namespace fleetcap::store {

// ChargebackReadRepository::DevicesHeld's sums per group, from the whole
// days [$1, $2) of the daily rows and the ragged hours [$3, $4) and [$5, $6)
// of the hourly rows; filters $7 cluster, $8 model, $9 node ('' for any);
// per device when $10. Summed by fleetcap_sum_int64 (migration 0017): past
// int64 is SQLSTATE 22003.
inline constexpr const char* kDevicesHeldSql = R"sql(
WITH picked AS (
  SELECT cluster, model, node, device_id, held_milli_seconds, used_milli_seconds, observed_milli_seconds
  FROM chargeback_device_daily
  WHERE day >= $1::timestamptz AND day < $2::timestamptz
    AND ($7::text = '' OR cluster = $7::text) AND ($8::text = '' OR model = $8::text)
    AND ($9::text = '' OR node = $9::text)
  UNION ALL
  SELECT cluster, model, node, device_id, held_milli_seconds, used_milli_seconds, observed_milli_seconds
  FROM chargeback_device_hourly
  WHERE ((hour >= $3::timestamptz AND hour < $4::timestamptz) OR (hour >= $5::timestamptz AND hour < $6::timestamptz))
    AND ($7::text = '' OR cluster = $7::text) AND ($8::text = '' OR model = $8::text)
    AND ($9::text = '' OR node = $9::text)
)
SELECT cluster COLLATE "C", model COLLATE "C", node COLLATE "C",
       (CASE WHEN $10::boolean THEN device_id ELSE '' END) COLLATE "C",
       fleetcap_sum_int64(held_milli_seconds), fleetcap_sum_int64(used_milli_seconds),
       fleetcap_sum_int64(observed_milli_seconds)
FROM picked
GROUP BY 1, 2, 3, 4
ORDER BY 1, 2, 3, 4
)sql";

}  // namespace fleetcap::store
