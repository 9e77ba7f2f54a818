#include "store/pg_capacity_repository.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_asset_sql.h"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

// The number of devices in service of each (cluster, model) is a step
// function that changes only where a service period starts or ends: the
// writers keep its steps in capacity_steps (migration 0031,
// store/functions/fleetcap_capacity_steps.sql). The query folds the steps
// before the window into its level at the start, ends each (cluster, model)
// at the window's end, and returns each segment between steps with devices
// in service: (cluster, model, from, to, devices), by cluster, model and
// from, the segments of one (cluster, model) never overlapping. Times are
// in milliseconds since the Unix epoch; $1, $2 the window. The work grows
// with the fleet's changes, not with its devices; DeviceTimeBuckets spreads
// the segments over the buckets.
constexpr const char* kDeviceTimeSegmentsSql = R"sql(
WITH changes AS (
  SELECT cluster, model, greatest((extract(epoch FROM at) * 1000)::bigint, $1::bigint) AS at, devices
  FROM capacity_steps
  WHERE at < to_timestamp($2::bigint / 1000.0)
    AND ($3::text = '' OR cluster = $3::text) AND ($4::text = '' OR model = $4::text)
), steps AS (
  SELECT cluster, model, at, sum(devices) AS delta FROM changes WHERE at < $2::bigint GROUP BY cluster, model, at
  UNION ALL
  SELECT DISTINCT cluster, model, $2::bigint, 0 FROM changes
), segments AS (
  SELECT cluster, model, at AS f, lead(at) OVER w AS t, sum(delta) OVER w AS n
  FROM steps WINDOW w AS (PARTITION BY cluster, model ORDER BY at)
)
SELECT cluster, model, f, t, n::bigint FROM segments
WHERE t IS NOT NULL AND t > f AND n > 0
ORDER BY cluster, model, f
)sql";

// One segment of DeviceTimeSegments: `devices` in service over [from, to) (ms).
struct DeviceTimeSegment {
  std::string cluster, model;
  int64_t from = 0, to = 0, devices = 0;
};

// The device time of `segments` (by cluster, model and from, none
// overlapping within a (cluster, model)) in the buckets of `filter`: each
// segment's devices x the milliseconds it covers of each bucket it
// touches, a bucket two segments share summed. By cluster, model and
// bucket, each with device time. This was the query's GROUP BY over one
// generated row per segment and bucket (tens of thousands on 90 days
// hourly), summed in numeric: most of the read's time on the server.
absl::StatusOr<std::vector<CapacityPoint>> DeviceTimeBuckets(const std::vector<DeviceTimeSegment>& segments,
                                                             const CapacityFilter& filter) {
  const int64_t start = absl::ToUnixMillis(filter.start);
  const int64_t width = absl::ToInt64Milliseconds(filter.width);
  // Under a millisecond: the query divided by zero, which the database refused.
  if (width <= 0 && !segments.empty()) {
    return absl::InvalidArgumentError("capacity: bucket width must be at least a millisecond");
  }
  std::vector<CapacityPoint> out;
  for (const DeviceTimeSegment& s : segments) {
    for (int64_t k = (s.from - start) / width; k <= (s.to - 1 - start) / width; ++k) {
      const int64_t bucket = start + k * width;
      const int64_t covered = std::min(s.to, bucket + width) - std::max(s.from, bucket);
      int64_t milli = 0;
      if (__builtin_mul_overflow(s.devices, covered, &milli)) {
        return absl::OutOfRangeError("capacity: a bucket's device time is past int64");
      }
      const absl::Time at = absl::FromUnixMillis(bucket);
      if (!out.empty() && out.back().start == at && out.back().cluster == s.cluster && out.back().model == s.model) {
        if (__builtin_add_overflow(out.back().milli_seconds, milli, &out.back().milli_seconds)) {
          return absl::OutOfRangeError("capacity: a bucket's device time is past int64");
        }
      } else {
        out.push_back({at, s.cluster, s.model, milli});
      }
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<CapacityPoint>> PgCapacityRepository::DeviceTime(const CapacityFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckCapacityFilter(filter));
  std::vector<CapacityPoint> out;
  if (filter.start == filter.end) return out;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<DeviceTimeSegment> segments;
  try {
    pqxx::read_transaction txn(*lease);
    for (const auto& r : txn.exec_params(kDeviceTimeSegmentsSql, absl::ToUnixMillis(filter.start),
                                         absl::ToUnixMillis(filter.end), filter.cluster, filter.model)) {
      segments.push_back(
          {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<int64_t>(), r[3].as<int64_t>(), r[4].as<int64_t>()});
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("capacity: reading device time [", FormatRfc3339(filter.start), ", ",
                                FormatRfc3339(filter.end), ")"),
                   e);
  }
  return DeviceTimeBuckets(segments, filter);
}

namespace {

const char* AssetLevelKey(AssetLevel level) {
  switch (level) {
    case AssetLevel::kModel:
      return "model";
    case AssetLevel::kCluster:
      return "cluster";
    case AssetLevel::kNode:
      return "node";
    case AssetLevel::kDevice:
      return "device";
  }
  return "model";
}

}  // namespace

absl::StatusOr<std::vector<AssetTime>> PgCapacityRepository::AssetTimes(const AssetFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckAssetWindow(filter.start, filter.end));
  std::vector<AssetTime> out;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    for (const auto& r :
         txn.exec_params(kAssetTimesSql, absl::ToUnixMicros(filter.start), absl::ToUnixMicros(filter.end),
                         filter.cluster, filter.model, filter.node, AssetLevelKey(filter.level))) {
      AssetTime group;
      group.model = r[0].as<std::string>();
      group.cluster = r[1].as<std::string>();
      group.node = r[2].as<std::string>();
      group.device = r[3].as<std::string>();
      group.devices = r[4].as<int64_t>();
      group.capacity_milli_seconds = r[5].as<int64_t>();
      group.held_milli_seconds = r[6].as<int64_t>();
      group.idle_milli_seconds = r[7].as<int64_t>();
      out.push_back(std::move(group));
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("assets: reading device time [", FormatRfc3339(filter.start), ", ",
                                FormatRfc3339(filter.end), ") by ", AssetLevelKey(filter.level)),
                   e);
  }
  return out;
}

absl::StatusOr<std::vector<DeviceHoldTime>> PgCapacityRepository::DeviceHolds(const std::string& cluster,
                                                                              const std::string& device,
                                                                              absl::Time start, absl::Time end,
                                                                              int max_holds) const {
  FLEETCAP_RETURN_IF_ERROR(CheckAssetWindow(start, end));
  std::vector<DeviceHoldTime> out;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    for (const auto& r : txn.exec_params(kDeviceHoldsSql, absl::ToUnixMicros(start), absl::ToUnixMicros(end), cluster,
                                         device, std::max(max_holds, 0))) {
      DeviceHoldTime hold;
      hold.pod_uid = r[0].as<std::string>();
      hold.pod = r[1].as<std::string>();
      hold.namespace_name = r[2].as<std::string>();
      hold.workload_kind = r[3].as<std::string>();
      hold.workload_name = r[4].as<std::string>();
      hold.team_label = r[5].as<std::string>();
      hold.milli = r[6].as<int64_t>();
      hold.from = MicrosField(r[7]);
      hold.to = MicrosField(r[8]);
      out.push_back(std::move(hold));
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("assets: reading the holds of device ", device.substr(0, 64), " of cluster ",
                                cluster.substr(0, 64)),
                   e);
  }
  return out;
}

}  // namespace fleetcap::store
