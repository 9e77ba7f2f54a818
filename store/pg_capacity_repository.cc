#include "store/pg_capacity_repository.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"

namespace fleetcap::store {
namespace {

// The number of devices in service of each (cluster, model) is a step
// function that changes only where a service period starts or ends: the
// writers keep its steps in capacity_steps (migration 0031,
// store/functions/fleetcap_capacity_steps.sql). The query folds the steps
// before the window into its level at the start, ends each (cluster, model)
// at the window's end, and spreads each segment between steps over the
// buckets it covers: the work grows with the fleet's changes and the
// buckets, not with its devices. Times are in milliseconds since the Unix
// epoch; $1, $2 the window, $3 the width.
constexpr const char* kDeviceTimeSql = R"sql(
WITH changes AS (
  SELECT cluster, model, greatest((extract(epoch FROM at) * 1000)::bigint, $1::bigint) AS at, devices
  FROM capacity_steps
  WHERE at < to_timestamp($2::bigint / 1000.0)
    AND ($4::text = '' OR cluster = $4::text) AND ($5::text = '' OR model = $5::text)
), steps AS (
  SELECT cluster, model, at, sum(devices) AS delta FROM changes WHERE at < $2::bigint GROUP BY cluster, model, at
  UNION ALL
  SELECT DISTINCT cluster, model, $2::bigint, 0 FROM changes
), segments AS (
  SELECT cluster, model, at AS f, lead(at) OVER w AS t, sum(delta) OVER w AS n
  FROM steps WINDOW w AS (PARTITION BY cluster, model ORDER BY at)
)
SELECT cluster, model, $1::bigint + k * $3::bigint AS bucket,
       sum(n * (least(t, $1::bigint + (k + 1) * $3::bigint) - greatest(f, $1::bigint + k * $3::bigint)))::bigint
FROM segments, generate_series((f - $1::bigint) / $3::bigint, (t - 1 - $1::bigint) / $3::bigint) AS k
WHERE t IS NOT NULL AND t > f AND n > 0
GROUP BY cluster, model, k
ORDER BY cluster, model, k
)sql";

}  // namespace

absl::StatusOr<std::vector<CapacityPoint>> PgCapacityRepository::DeviceTime(const CapacityFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckCapacityFilter(filter));
  std::vector<CapacityPoint> out;
  if (filter.start == filter.end) return out;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    // The planner's guess of the buckets is far off (a thousand a
    // segment); compiling the query would cost more than running it.
    txn.exec("SET LOCAL jit = off");
    for (const auto& r :
         txn.exec_params(kDeviceTimeSql, absl::ToUnixMillis(filter.start), absl::ToUnixMillis(filter.end),
                         absl::ToInt64Milliseconds(filter.width), filter.cluster, filter.model)) {
      const int64_t milli = r[3].as<int64_t>();
      if (milli > 0) {
        out.push_back(
            {absl::FromUnixMillis(r[2].as<int64_t>()), r[0].as<std::string>(), r[1].as<std::string>(), milli});
      }
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("capacity: reading device time [", FormatRfc3339(filter.start), ", ",
                                FormatRfc3339(filter.end), ")"),
                   e);
  }
  return out;
}

}  // namespace fleetcap::store
