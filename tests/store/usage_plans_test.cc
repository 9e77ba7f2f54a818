// The usage reads (GET /v1/usage) find one node's minutes through
// usage_minute_by_node (migration 0030) and, at rest (migration 0037), by
// series and hour in the partitions of their window only, never by reading
// the window's every row, and a cluster's hours in its hourly rollup
// (migration 0034) with the minutes of its stale hours alone: their plans on
// a database seeded with two days of minute telemetry
// (tests/support/seeded_usage_history.h), the first at rest.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_usage_repository.h"
#include "store/pg_usage_sql.h"
#include "tests/support/query_plan.h"
#include "tests/support/seeded_hold_history.h"
#include "tests/support/seeded_usage_history.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class UsagePlansTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    {
      pqxx::work txn(*conn_);
      testing::SeedHoldHistory(txn, holds_, now_);
      testing::SeedUsageHistory(txn, holds_, usage_, now_);
      txn.commit();
    }
    // The first day of minutes at rest (migration 0037), the last 13 hours
    // still in usage_minute: the reads span both. The history is seeded with
    // triggers off, so its hours are first listed as due, as the triggers
    // list the hours written (a day is given back once none of its hours is
    // due), then moved the oldest first, as the compaction moves them.
    pqxx::nontransaction txn(*conn_);
    txn.exec(
        "INSERT INTO usage_hours_to_compact (cluster, hour)"
        " SELECT DISTINCT cluster, date_trunc('hour', minute, 'UTC') FROM usage_minute");
    txn.exec_params(
        "SELECT fleetcap_compact_usage_hour(cluster, hour) FROM (SELECT cluster, hour FROM usage_hours_to_compact"
        " WHERE hour < $1::timestamptz ORDER BY hour, cluster) due",
        FormatRfc3339(now_ - absl::Hours(13)));
    txn.exec("VACUUM ANALYZE");
  }

  // The plan of Buckets over `f` by `unit` ("minute", "hour") from the minutes.
  // `seqscan`: whether PostgreSQL may read a table whole.
  std::multiset<std::string> BucketsPlan(const UsageFilter& f, const std::string& unit, bool seqscan = true) {
    pqxx::nontransaction txn(*conn_);
    txn.exec(seqscan ? "SET enable_seqscan = on" : "SET enable_seqscan = off");
    auto rows = txn.exec_params(absl::StrCat("EXPLAIN (FORMAT JSON) ", kUsageBucketsBinnedSelectSql,
                                             kUsageFilterWhereSql, kUsageBucketsBinnedGroupSql),
                                f.cluster, FormatRfc3339(f.start), FormatRfc3339(f.end), f.pods, f.device, f.node,
                                f.model, f.pod, f.namespace_, absl::StrCat("1 ", unit));
    return testing::PlanNodes(rows[0][0].as<std::string>());
  }

  int64_t RowsIn(const std::string& table) {
    pqxx::nontransaction txn(*conn_);
    return txn.exec(absl::StrCat("SELECT count(*) FROM ", txn.quote_name(table)))[0][0].as<int64_t>();
  }

  UsageFilter NodeDay(int node, absl::Time end) const {
    UsageFilter f;
    f.cluster = absl::StrCat("c", node % holds_.clusters);
    f.node = absl::StrCat("n-", node);
    f.start = end - absl::Hours(24);
    f.end = end;
    return f;
  }

  static testing::HoldHistoryShape Holds() {
    testing::HoldHistoryShape shape;
    shape.devices = 96;
    shape.days = 3;
    return shape;
  }
  static testing::UsageHistoryShape Usage() {
    testing::UsageHistoryShape shape;
    shape.minute_days = 2;
    shape.hourly_days = 3;
    return shape;
  }

  const testing::HoldHistoryShape holds_ = Holds();
  const testing::UsageHistoryShape usage_ = Usage();
  const absl::Time now_ = absl::FromUnixSeconds(1767225600 + 13 * 3600);  // 2026-01-01T13:00Z
};

// The reads and their plans on one seeded database (seeding it is most of the time).
TEST_F(UsagePlansTest, ANodesMinutesAreFoundByIndexInTheirDaysPartitionsOnly) {
  // The seeded telemetry is what the reads count.
  PgUsageRepository usage(pool());
  auto minutes = usage.Buckets(NodeDay(4, now_ - absl::Hours(3)), BucketWidth::kMinute);
  ASSERT_THAT(minutes, IsOk());
  ASSERT_EQ(minutes->size(), 1440u);
  int64_t samples = 0;
  for (const UsageBucket& b : *minutes) samples += b.samples.value_or(0);
  EXPECT_EQ(samples, 8 * 1440 * testing::UsageHistoryShape::kSamplesPerRow);
  EXPECT_EQ(minutes->front().series, 8);

  UsageFilter cluster;
  cluster.cluster = "c1";
  cluster.start = now_ - absl::Hours(24 * 30);
  cluster.end = now_;
  auto hours = usage.Buckets(cluster, BucketWidth::kHour);
  ASSERT_THAT(hours, IsOk());
  ASSERT_EQ(hours->size(), static_cast<size_t>(24 * usage_.minute_days));
  EXPECT_EQ(hours->back().series, holds_.devices / 3);  // 32 devices a cluster: 4 nodes of 8

  // The plans of a day inside one UTC day's partition, and one across two.
  for (const absl::Time end : {now_ - absl::Hours(13), now_ - absl::Hours(3)}) {
    const std::multiset<std::string> plan = BucketsPlan(NodeDay(5, end), "minute");
    const std::string where = absl::StrCat("a day ending ", FormatRfc3339(end), "\n", ::testing::PrintToString(plan));
    std::set<std::string> partitions;
    for (const std::string& node : plan) {
      const size_t on = node.find(" on usage_minute_");
      if (on == std::string::npos) continue;
      partitions.insert(node.substr(on + 4, 21));
      // An hour whose minutes all moved to rest keeps an empty partition, which PostgreSQL rightly reads whole.
      if (node.rfind("Seq Scan", 0) == 0) {
        EXPECT_EQ(RowsIn(node.substr(on + 4)), 0) << where;
      }
    }
    // A day with minutes still in usage_minute finds the node's by its index there.
    if (end > now_ - absl::Hours(13)) {
      EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr("_cluster_node_minute_idx)"))) << where;
    }
    EXPECT_LE(partitions.size(), 2u) << where;
    // The minutes at rest are a few thousand rows a day here, which
    // PostgreSQL rightly reads whole; with whole reads off, the hours of the
    // window's days only, by index.
    const std::multiset<std::string> indexed = BucketsPlan(NodeDay(5, end), "minute", /*seqscan=*/false);
    const std::string at = absl::StrCat("a day ending ", FormatRfc3339(end), "\n", ::testing::PrintToString(indexed));
    std::set<std::string> at_rest;
    for (const std::string& node : indexed) {
      EXPECT_EQ(node.rfind("Seq Scan", 0), std::string::npos) << at;
      const size_t rest = node.find(" on usage_series_hour_");
      if (rest != std::string::npos) at_rest.insert(node.substr(rest + 4, 26));
    }
    EXPECT_THAT(indexed, ::testing::Contains(::testing::HasSubstr("_cluster_series_id_hour_idx)"))) << at;
    EXPECT_LE(at_rest.size(), 2u) << at;
  }
}

// A cluster by hour over 30 days (migration 0034): the closed hours from
// usage_cluster_hourly by its key, and usage_minute only in the partition of
// the one stale hour (by index, or its hour's partition whole). The answer
// is the minutes' (every hour of them).
TEST_F(UsagePlansTest, AClustersHoursAreReadFromTheRollupAndOnlyTheStaleHoursFromTheMinutes) {
  const absl::Time stale_hour = now_ - absl::Hours(1);
  pqxx::nontransaction(*conn_).exec_params(
      "INSERT INTO usage_cluster_hour_changes (cluster, hour) VALUES ('c1', $1::timestamptz)",
      FormatRfc3339(stale_hour));
  UsageFilter cluster;
  cluster.cluster = "c1";
  cluster.start = now_ - absl::Hours(24 * 30);
  cluster.end = now_;
  PgUsageRepository usage(pool());
  auto hours = usage.Buckets(cluster, BucketWidth::kHour);
  ASSERT_THAT(hours, IsOk());
  ASSERT_EQ(hours->size(), static_cast<size_t>(24 * usage_.minute_days));
  for (const UsageBucket& b : *hours) EXPECT_EQ(b.series, holds_.devices / 3) << FormatRfc3339(b.start);

  for (const bool pods : {false, true}) {
    cluster.pods = pods;
    const UsageRolledHours parts = UsageRolledHoursOf(cluster.start, cluster.end, {stale_hour});
    ASSERT_EQ(parts.minutes.size(), 1u);
    const std::string day = absl::FormatTime("%Y%m%d", stale_hour, absl::UTCTimeZone());
    // As planned, and with whole reads off: the minutes at rest of the stale
    // hour's day are none here, which PostgreSQL may rightly read whole.
    for (const bool seqscan : {true, false}) {
      std::multiset<std::string> plan;
      {
        pqxx::nontransaction txn(*conn_);
        txn.exec(seqscan ? "SET enable_seqscan = on" : "SET enable_seqscan = off");
        auto rows = txn.exec_params(absl::StrCat("EXPLAIN (FORMAT JSON) ", UsageRolledHoursSql(parts)), cluster.cluster,
                                    pods, "", "", FormatRfc3339(parts.from), FormatRfc3339(parts.to), parts.stale);
        plan = testing::PlanNodes(rows[0][0].as<std::string>());
      }
      const std::string where = absl::StrCat("pods ", pods, " seqscan ", seqscan, "\n", ::testing::PrintToString(plan));
      std::set<std::string> partitions, at_rest;
      // The stale hour's own partition (migration 0044) holds that hour alone, which PostgreSQL may
      // rightly read whole; a day's or more, never.
      const std::string hour_scan =
          absl::StrCat("Seq Scan on usage_minute_", absl::FormatTime("%Y%m%d_%H", stale_hour, absl::UTCTimeZone()));
      for (const std::string& node : plan) {
        if (node != hour_scan) {
          EXPECT_EQ(node.rfind(seqscan ? "Seq Scan on usage_minute" : "Seq Scan", 0), std::string::npos) << where;
        }
        EXPECT_EQ(node.rfind("Seq Scan on usage_cluster_hourly", 0), std::string::npos) << where;
        const size_t on = node.find(" on usage_minute_");
        if (on != std::string::npos) partitions.insert(node.substr(on + 4, 21));
        const size_t rest = node.find(" on usage_series_hour_");
        if (rest != std::string::npos) at_rest.insert(node.substr(rest + 4, 26));
      }
      EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr(" on usage_cluster_hourly"))) << where;
      EXPECT_EQ(partitions, (std::set<std::string>{absl::StrCat("usage_minute_", day)})) << where;
      EXPECT_EQ(at_rest, (std::set<std::string>{absl::StrCat("usage_series_hour_", day)})) << where;
    }
  }
}

// An hour of minutes at rest is read with nothing called a minute at a time
// (migrations 0047, 0048): fleetcap_usage_minutes, fleetcap_decimal and
// fleetcap_used_milli (as the pods' rollup rounds each reading) inlined into
// the statement, and the hour's arrays unnested in the select list
// (ProjectSet), not each into a tuple store of its own (Function Scan).
TEST_F(UsagePlansTest, AnHoursMinutesAtRestAreReadWithNoFunctionCalledAMinuteAtATime) {
  const std::string from = FormatRfc3339(now_ - absl::Hours(20)), to = FormatRfc3339(now_ - absl::Hours(19));
  const std::string read =
      "SELECT device_id, pod_uid, fleetcap_used_milli(util_mean), power_watts"
      " FROM fleetcap_usage_minutes('c1', $1::timestamptz, $2::timestamptz)";
  pqxx::nontransaction txn(*conn_);
  // The hour is at rest, whole: what the plan reads is what the rollups read there.
  ASSERT_EQ(
      txn.exec_params("SELECT count(*) FROM usage_minute WHERE minute >= $1::timestamptz AND minute < $2::timestamptz",
                      from, to)[0][0]
          .as<int64_t>(),
      0);
  ASSERT_GT(txn.exec_params(absl::StrCat("SELECT count(*) FROM (", read, ") m"), from, to)[0][0].as<int64_t>(), 0);
  std::string plan;
  for (const auto& row : txn.exec_params(absl::StrCat("EXPLAIN (VERBOSE) ", read), from, to)) {
    plan += row[0].as<std::string>() + "\n";
  }
  EXPECT_THAT(plan, ::testing::Not(::testing::HasSubstr("fleetcap_"))) << plan;
  EXPECT_THAT(plan, ::testing::HasSubstr("ProjectSet")) << plan;
  EXPECT_THAT(plan, ::testing::Not(::testing::HasSubstr("Function Scan"))) << plan;
}

}  // namespace
}  // namespace fleetcap::store
