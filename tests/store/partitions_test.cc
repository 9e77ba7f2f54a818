// usage_minute's daily partitions: created ahead, dropped past retention.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/usage_partitions.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

std::vector<std::string> Partitions(pqxx::connection& conn) {
  pqxx::nontransaction txn(conn);
  std::vector<std::string> names;
  for (const auto& row :
       txn.exec("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'usage_minute' ORDER BY 1")) {
    names.push_back(row[0].as<std::string>());
  }
  return names;
}

TEST(UsagePartitions, CreatedAheadDroppedPastRetentionIdempotent) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  const absl::Time jan10 = *ParseRfc3339("now", "2026-01-10T13:00:00Z");

  auto created = MaintainUsagePartitions(*conn, jan10, {2, 5});
  ASSERT_THAT(created, IsOk());
  EXPECT_EQ(*created, 3);
  EXPECT_EQ(Partitions(*conn),
            (std::vector<std::string>{"usage_minute_20260110", "usage_minute_20260111", "usage_minute_20260112"}));
  EXPECT_EQ(*MaintainUsagePartitions(*conn, jan10, {2, 5}), 0);

  // A row lands in its day's partition; a day without one is refused.
  pqxx::work txn(*conn);
  txn.exec(
      "INSERT INTO usage_minute (cluster, device_id, minute, util_mean, samples) "
      "VALUES ('c', 'd', '2026-01-11T23:59:00Z', 0.5, 1)");
  txn.commit();
  EXPECT_THROW(pqxx::work(*conn).exec("INSERT INTO usage_minute (cluster, device_id, minute, samples) "
                                      "VALUES ('c', 'd', '2026-02-01T00:00:00Z', 1)"),
               pqxx::sql_error);

  // On Jan 20 with five days of retention, a partition goes once its end is at
  // or before Jan 15: Jan 10, 11 and 12 (ending Jan 11, 12, 13) go, and
  // Jan 20..22 are created.
  const absl::Time jan20 = *ParseRfc3339("now", "2026-01-20T00:30:00Z");
  auto changed = MaintainUsagePartitions(*conn, jan20, {2, 5});
  ASSERT_THAT(changed, IsOk());
  EXPECT_EQ(*changed, 6);
  EXPECT_EQ(Partitions(*conn),
            (std::vector<std::string>{"usage_minute_20260120", "usage_minute_20260121", "usage_minute_20260122"}));
}

TEST(UsagePartitions, RetentionKeepsRecentDays) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(MaintainUsagePartitions(*conn, *ParseRfc3339("now", "2026-03-01T00:00:00Z"), {0, 2}), IsOk());
  // Mar 1's partition ends on Mar 2. On Mar 3 that is within two days and it
  // stays; on Mar 4 it is two days ago, and it goes.
  ASSERT_THAT(MaintainUsagePartitions(*conn, *ParseRfc3339("now", "2026-03-03T12:00:00Z"), {0, 2}), IsOk());
  EXPECT_EQ(Partitions(*conn), (std::vector<std::string>{"usage_minute_20260301", "usage_minute_20260303"}));
  ASSERT_THAT(MaintainUsagePartitions(*conn, *ParseRfc3339("now", "2026-03-04T12:00:00Z"), {0, 2}), IsOk());
  EXPECT_EQ(Partitions(*conn), (std::vector<std::string>{"usage_minute_20260303", "usage_minute_20260304"}));
}

// The hourly rollups of usage (and their pending changes) go with the
// minutes they were made from, at the same cutoff.
TEST(UsagePartitions, HourlyRollupsGoWithTheirMinutes) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  {
    pqxx::work txn(*conn);
    for (const char* hour : {"2026-01-14T23:00:00Z", "2026-01-15T00:00:00Z"}) {
      txn.exec_params(
          "INSERT INTO usage_hourly (cluster, hour, pod_uid, device_id, used_milli)"
          " VALUES ('c', $1::timestamptz, 'uid', 'd', array_fill(500::smallint, ARRAY[60]))",
          hour);
      txn.exec_params("INSERT INTO usage_hour_changes (cluster, hour) VALUES ('c', $1::timestamptz)", hour);
    }
    txn.commit();
  }
  // On Jan 20 with five days of retention the minutes before Jan 15 go.
  ASSERT_THAT(MaintainUsagePartitions(*conn, *ParseRfc3339("now", "2026-01-20T00:30:00Z"), {0, 5}), IsOk());
  pqxx::nontransaction txn(*conn);
  for (const char* table : {"usage_hourly", "usage_hour_changes"}) {
    EXPECT_EQ(txn.exec(absl::StrCat("SELECT string_agg(to_char(hour AT TIME ZONE 'UTC', 'MM-DD HH24'), ',') FROM ",
                                    table))[0][0]
                  .as<std::string>(),
              "01-15 00")
        << table;
  }
}

TEST(UsagePartitions, BadPolicyNamesTheField) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  auto bad = MaintainUsagePartitions(*conn, absl::Now(), {-1, 5});
  EXPECT_THAT(bad, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("days_ahead")));
}

}  // namespace
}  // namespace fleetcap::store
