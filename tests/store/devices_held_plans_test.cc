// The Assets view's read of the devices held (PgChargebackRepository::
// DevicesHeld, store/pg_devices_held_sql.h) finds a node's rows by the
// *_by_node indexes, and a window's ragged hours by hour, never by a scan
// of every row kept: its plans on a database seeded with 60 days of devices
// held every hour (4 clusters, 50 nodes of 8 devices), analysed.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "absl/time/time.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/chargeback_repository.h"
#include "store/pg_devices_held_sql.h"
#include "tests/support/query_plan.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

// Device d is "GPU-d" of node "n(d / 8)" in cluster "c(d / 100)", held for
// part of each of the 60 days' hours before $1.
constexpr const char* kSeedHeldHoursSql = R"sql(
INSERT INTO chargeback_device_hourly (cluster, hour, device_id, model, node, held_milli_seconds,
                                      used_milli_seconds, observed_milli_seconds)
SELECT 'c' || (d / 100), h, 'GPU-' || d, 'A100', 'n' || (d / 8), 600000 + d, d, 600000
FROM generate_series(0, 399) d,
     generate_series($1::timestamptz - interval '60 days', $1::timestamptz - interval '1 hour', interval '1 hour') h
)sql";

// Their days, rolled up as the store rolls them up.
constexpr const char* kSeedHeldDaysSql = R"sql(
INSERT INTO chargeback_device_daily (cluster, day, device_id, model, node, held_milli_seconds,
                                     used_milli_seconds, observed_milli_seconds)
SELECT cluster, date_trunc('day', hour, 'UTC'), device_id, model, node, sum(held_milli_seconds),
       sum(used_milli_seconds), sum(observed_milli_seconds)
FROM chargeback_device_hourly GROUP BY 1, 2, 3, 4, 5
)sql";

class DevicesHeldPlansTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    pqxx::nontransaction txn(*conn_);
    txn.exec_params(kSeedHeldHoursSql, FormatRfc3339(now_));
    txn.exec(kSeedHeldDaysSql);
    txn.exec("VACUUM ANALYZE");
  }

  // The plan of a read of [start, end) (both on whole hours) as DevicesHeld
  // asks it: its whole days from the daily rows, its ends from the hourly.
  std::multiset<std::string> Plan(absl::Time start, absl::Time end, const std::string& cluster, const std::string& node,
                                  bool by_device) {
    absl::Time days_start = DayStart(start) == start ? start : DayStart(start) + absl::Hours(24);
    absl::Time days_end = DayStart(end);
    if (days_start >= days_end) days_start = days_end = end;
    pqxx::nontransaction txn(*conn_);
    const pqxx::result rows =
        txn.exec_params(std::string("EXPLAIN (FORMAT JSON) ") + kDevicesHeldSql, FormatRfc3339(days_start),
                        FormatRfc3339(days_end), FormatRfc3339(start), FormatRfc3339(days_start),
                        FormatRfc3339(days_end), FormatRfc3339(end), cluster, "", node, by_device);
    return testing::PlanNodes(rows[0][0].as<std::string>());
  }

  const absl::Time now_ = absl::FromUnixSeconds(1767225600);  // 2026-01-01
};

// Over 30 days a node named alone is found by its indexes, not among every
// device's rows of the window; with its cluster by those or by the primary
// key's cluster and days (as the planner weighs the cluster's size); the
// ragged hours of a fleet's day by hour. Never a scan of every row kept.
TEST_F(DevicesHeldPlansTest, ANodeIsReadByItsIndexesAndADayByHour) {
  for (const std::string cluster : {"", "c1"}) {
    for (const absl::Duration window : {absl::Hours(30), absl::Hours(24 * 30 + 7)}) {
      const std::multiset<std::string> plan =
          Plan(now_ - window - absl::Hours(5), now_ - absl::Hours(5), cluster, "n17", true);
      const std::string where =
          cluster + " over " + absl::FormatDuration(window) + "\n" + ::testing::PrintToString(plan);
      EXPECT_EQ(plan.count("Seq Scan on chargeback_device_daily"), 0u) << where;
      EXPECT_EQ(plan.count("Seq Scan on chargeback_device_hourly"), 0u) << where;
      if (cluster.empty() && window > absl::Hours(48)) {
        EXPECT_THAT(plan, Contains(HasSubstr("(chargeback_device_daily_by_node)"))) << where;
        EXPECT_THAT(plan, Contains(HasSubstr("(chargeback_device_hourly_by_node)"))) << where;
      }
    }
    const std::multiset<std::string> day = Plan(now_ - absl::Hours(29), now_ - absl::Hours(5), cluster, "", false);
    EXPECT_EQ(day.count("Seq Scan on chargeback_device_hourly"), 0u) << cluster << ::testing::PrintToString(day);
  }
}

}  // namespace
}  // namespace fleetcap::store
