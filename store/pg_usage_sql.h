#pragma once
// The SQL of the usage reads (GET /v1/usage), shared by PgUsageRepository
// and the test that holds their plans to indexes
// (tests/store/usage_plans_test.cc). $1 the cluster, $2 and $3 the window
// [start, end) (RFC 3339), $4 the pods' shares (true) or the whole devices,
// $5..$9 the selectors device, node, model, pod (name or uid), namespace
// ('' any). The statements are planned with their values (unnamed), so a
// selector left empty drops out of the plan, the window prunes usage_minute
// to its days' partitions, and a node is found by usage_minute_by_node
// (migration 0030).

namespace fleetcap::store {

// The rows a UsageFilter selects (pod rows have pod_uid <> '').
inline constexpr const char* kUsageFilterWhereSql =
    " FROM usage_minute WHERE cluster = $1 AND minute >= $2::timestamptz AND minute < $3::timestamptz"
    " AND (pod_uid <> '') = $4"
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

}  // namespace fleetcap::store
