#pragma once
// The SQL of the usage reads (GET /v1/usage), shared by PgUsageRepository
// and the test that holds their plans to indexes
// (tests/store/usage_plans_test.cc). $1 the cluster, $2 and $3 the window
// [start, end) (RFC 3339), $4 the pods' shares (true) or the whole devices,
// $5..$9 the selectors device, node, model, pod (name or uid), namespace
// ('' any). The minutes are read through fleetcap_usage_minutes (migration
// 0037: the recent ones in usage_minute, the others at rest by series and
// hour), which PostgreSQL inlines. The statements are planned with their
// values (unnamed), so a selector left empty drops out of the plan, the
// window prunes both tables to its days' partitions, and a node is found by
// usage_minute_by_node (migration 0030) and usage_series_by_node. Hours of a cluster, a model or a namespace are read
// from the cluster's hourly rollup, usage_cluster_hourly (migration 0034), and only the hours not rolled up from the
// minutes (UsageRolledHoursSql).

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/time_util.h"

namespace fleetcap::store {

// The rows a UsageFilter selects (pod rows have pod_uid <> '').
inline constexpr const char* kUsageFilterWhereSql =
    " FROM fleetcap_usage_minutes($1, $2::timestamptz, $3::timestamptz) WHERE (pod_uid <> '') = $4"
    " AND ($5 = '' OR device_id = $5) AND ($6 = '' OR node = $6) AND ($7 = '' OR model = $7)"
    " AND ($8 = '' OR pod = $8 OR pod_uid = $8) AND ($9 = '' OR namespace = $9)";

// PgUsageRepository::Buckets: the rows grouped in UTC buckets of $10
// ('minute', 'hour', 'day'), oldest first.
inline constexpr const char* kUsageBucketsSelectSql =
    "SELECT (extract(epoch FROM date_trunc($10, minute, 'UTC')) * 1000)::bigint AS bucket,"
    " sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL)"
    "   / nullif(sum(samples) FILTER (WHERE util_mean IS NOT NULL), 0),"
    " max(util_max), avg(memory_used_bytes)::float8, avg(power_watts),"
    " sum(samples) FILTER (WHERE util_mean IS NOT NULL), count(DISTINCT (device_id, pod_uid))";
inline constexpr const char* kUsageBucketsGroupSql = " GROUP BY 1 ORDER BY 1";

// PgUsageRepository::Buckets from the minutes: the same buckets as
// kUsageBucketsSelectSql + kUsageFilterWhereSql + kUsageBucketsGroupSql (the
// statement before migration 0034, which the benchmark and the tests compare
// with), the same aggregates of the same rows, but each row's bucket cut by
// date_bin from 2000-01-01 UTC (an integer division of the microseconds: the
// same UTC minutes, hours and days) and made milliseconds once a bucket, where
// the statement before took date_trunc in a named zone and a numeric product
// of every row. $10 the width as an interval ('1 minute', '1 hour', '1 day').
inline constexpr const char* kUsageBucketsBinnedSelectSql =
    "SELECT (extract(epoch FROM b) * 1000)::bigint,"
    " sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL)"
    "   / nullif(sum(samples) FILTER (WHERE util_mean IS NOT NULL), 0),"
    " max(util_max), avg(memory_used_bytes)::float8, avg(power_watts),"
    " sum(samples) FILTER (WHERE util_mean IS NOT NULL), count(DISTINCT (device_id, pod_uid)) FROM ("
    "SELECT date_bin($10::interval, minute, '2000-01-01T00:00:00Z'::timestamptz) AS b, device_id, pod_uid,"
    " util_mean, samples, util_max, memory_used_bytes, power_watts";
inline constexpr const char* kUsageBucketsBinnedGroupSql = ") s GROUP BY b ORDER BY b";

// Hourly buckets of a cluster, a model or a namespace (migration 0034): the
// hours wholly inside the window, rolled up and not stale, from
// usage_cluster_hourly; the rest of the window (its part-hours at either end,
// and the stale hours) from the minutes, aggregated to the same sums, each
// hour from one of the two. $1 the cluster, $2 the pods' shares (true) or the
// whole devices, $3 the model, $4 the namespace ('' any), $5 and $6 the whole
// hours [from, to), $7 the stale hours among them (timestamptz[]).
struct UsageRolledHours {
  absl::Time from, to;  // the whole hours of the window, [from, to); from >= to: none
  std::string stale;    // the stale hours, as a timestamptz[] literal
  // The ranges [start, end) read from the minutes, ascending and disjoint.
  std::vector<std::pair<absl::Time, absl::Time>> minutes;
};

// The parts of [start, end) given the stale hours (any order, duplicates).
inline UsageRolledHours UsageRolledHoursOf(absl::Time start, absl::Time end, std::vector<absl::Time> stale) {
  const absl::Duration hour = absl::Hours(1);
  UsageRolledHours parts;
  const absl::Time floor_start = absl::FromUnixSeconds(absl::ToUnixSeconds(start) / 3600 * 3600);
  parts.from = floor_start == start ? start : floor_start + hour;
  parts.to = absl::FromUnixSeconds(absl::ToUnixSeconds(end) / 3600 * 3600);
  if (absl::ToUnixSeconds(end) < 0 || absl::ToUnixSeconds(start) < 0) parts.to = parts.from;  // no rollup before 1970
  std::sort(stale.begin(), stale.end());
  stale.erase(std::unique(stale.begin(), stale.end()), stale.end());
  std::vector<std::string> texts;
  const auto add = [&](absl::Time a, absl::Time b) {
    if (b <= a) return;
    if (!parts.minutes.empty() && parts.minutes.back().second >= a) {
      parts.minutes.back().second = std::max(parts.minutes.back().second, b);
    } else {
      parts.minutes.emplace_back(a, b);
    }
  };
  if (parts.to <= parts.from) {
    parts.from = parts.to = start;
    add(start, end);
  } else {
    add(start, parts.from);
    for (const absl::Time h : stale) {
      if (h < parts.from || h >= parts.to) continue;
      texts.push_back(absl::StrCat("\"", FormatRfc3339(h), "\""));
      add(h, h + hour);
    }
    add(parts.to, end);
  }
  parts.stale = absl::StrCat("{", absl::StrJoin(texts, ","), "}");
  return parts;
}

// The statement of `parts`, its minute ranges written in (as RFC 3339 text
// this code formats), so that the window prunes the minutes to their days.
inline std::string UsageRolledHoursSql(const UsageRolledHours& parts) {
  std::string sql =
      "SELECT (extract(epoch FROM h) * 1000)::bigint, uw / nullif(us, 0), um, (ms / nullif(mr, 0))::float8,"
      " ps / nullif(pr, 0), us, se FROM ("
      "SELECT hour AS h, util_weighted AS uw, util_samples AS us, util_max AS um, memory_sum AS ms,"
      " memory_rows AS mr, power_sum AS ps, power_rows AS pr, series AS se FROM usage_cluster_hourly"
      " WHERE cluster = $1 AND pods = $2 AND model = $3 AND namespace = $4 AND hour >= $5::timestamptz"
      " AND hour < $6::timestamptz AND hour <> ALL ($7::timestamptz[])";
  if (!parts.minutes.empty()) {
    std::vector<std::string> ranges;
    for (const auto& [a, b] : parts.minutes) {
      ranges.push_back(absl::StrCat("SELECT * FROM fleetcap_usage_minutes($1, '", FormatRfc3339(a), "'::timestamptz, '",
                                    FormatRfc3339(b), "'::timestamptz)"));
    }
    absl::StrAppend(
        &sql,
        " UNION ALL SELECT date_trunc('hour', minute, 'UTC'),"
        " sum(util_mean * samples) FILTER (WHERE util_mean IS NOT NULL),"
        " sum(samples) FILTER (WHERE util_mean IS NOT NULL), max(util_max), sum(memory_used_bytes),"
        " count(memory_used_bytes), sum(power_watts), count(power_watts), count(DISTINCT (device_id, pod_uid))"
        " FROM (",
        absl::StrJoin(ranges, " UNION ALL "),
        ") m WHERE (pod_uid <> '') = $2 AND ($3 = '' OR model = $3) AND ($4 = '' OR namespace = $4) GROUP BY 1");
  }
  absl::StrAppend(&sql, ") u ORDER BY 1");
  return sql;
}

// The stale hours of the cluster in [$2, $3), for UsageRolledHoursOf.
inline constexpr const char* kUsageStaleHoursSql =
    "SELECT DISTINCT (extract(epoch FROM hour))::bigint FROM usage_cluster_hour_changes"
    " WHERE cluster = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz";

}  // namespace fleetcap::store
