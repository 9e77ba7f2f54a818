// The reads at one instant (the fleet summary: SummarizeAt, HoldersAt) find
// their holds through indexes, never a scan of the whole history (migration
// 0029): their plans on a database seeded with 60 days of holds, now and at
// past instants, for every cluster and for one, hold no sequential scan of
// `holds`, and use the open rows' index and the closed spans' GiST index.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_instant_sql.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_team_facts_repository.h"
#include "tests/support/query_plan.h"
#include "tests/support/seeded_hold_history.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class InstantPlansTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    {
      pqxx::work txn(*conn_);
      testing::SeedHoldHistory(txn, shape_, now_);
      txn.commit();
    }
    pqxx::nontransaction(*conn_).exec("VACUUM ANALYZE");
  }

  std::multiset<std::string> PlanOf(const char* sql, const std::string& cluster, absl::Time at) {
    pqxx::nontransaction txn(*conn_);
    auto rows = txn.exec_params(std::string("EXPLAIN (FORMAT JSON) ") + sql, cluster, FormatRfc3339(at));
    return testing::PlanNodes(rows[0][0].as<std::string>());
  }

  static testing::HoldHistoryShape Shape() {
    testing::HoldHistoryShape shape;
    shape.devices = 240;
    shape.days = 60;
    return shape;
  }

  const testing::HoldHistoryShape shape_ = Shape();
  const absl::Time now_ = absl::FromUnixSeconds(1767225600);  // 2026-01-01
};

TEST_F(InstantPlansTest, TheSeededHistoryIsWhatTheSummaryReads) {
  PgLiveInventoryRepository inventory(pool());
  auto now = inventory.SummarizeAt("", now_);
  ASSERT_THAT(now, IsOk());
  int64_t devices = 0, held = 0;
  for (const ModelCount& c : *now) {
    devices += c.devices;
    held += c.held_milli;
  }
  EXPECT_EQ(devices, shape_.devices);
  EXPECT_EQ(held, shape_.open_milli());
  // Ten days back, at a slot's start: every device held by its pod of the day.
  auto past = PgTeamFactsRepository(pool()).HoldersAt("", now_ - absl::Hours(24 * 10));
  ASSERT_THAT(past, IsOk());
  EXPECT_EQ(past->size(), static_cast<size_t>(shape_.devices));
}

TEST_F(InstantPlansTest, HoldsAreFoundByIndexNowAndAtPastInstants) {
  for (const char* sql : {kSummarizeAtSql, kHoldersAtSql}) {
    for (const std::string cluster : {"", "c1"}) {
      for (const absl::Duration ago : {absl::ZeroDuration(), absl::Hours(5), absl::Hours(24 * 30 + 7)}) {
        const std::multiset<std::string> plan = PlanOf(sql, cluster, now_ - ago);
        const std::string where = absl::StrCat(sql == kSummarizeAtSql ? "SummarizeAt" : "HoldersAt", " cluster '",
                                               cluster, "' ", absl::FormatDuration(ago), " ago");
        EXPECT_EQ(plan.count("Seq Scan on holds"), 0u) << where << "\n" << ::testing::PrintToString(plan);
        EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr("(holds_open)"))) << where;
        EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr("(holds_closed_span)"))) << where;
      }
    }
  }
}

}  // namespace
}  // namespace fleetcap::store
