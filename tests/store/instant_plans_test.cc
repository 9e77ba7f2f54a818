// The reads at one instant (the fleet summary: SummarizeAt, HoldersAt) find
// their holds through indexes, never a scan of the whole history (migration
// 0029): their plans on a database seeded with 60 days of holds, now and at
// past instants, for every cluster and for one, hold no sequential scan of
// `holds`, and use the open rows' index and the closed spans' GiST index;
// "now" reads the kept rows (migrations 0032, 0033); other instants, the
// changes from a known summary nearby through the indexes on the holds' and
// device rows' starts and ends (migration 0036).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_instant_reads.h"
#include "store/pg_instant_sql.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_team_facts_repository.h"
#include "tests/support/hold_history_plans.h"
#include "tests/support/query_plan.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class InstantPlansTest : public testing::HoldHistoryPlansTest {
 protected:
  // The plan of `sql` for `cluster` at `at` (none: a read of the kept "now", whose only parameter is the cluster).
  std::multiset<std::string> PlanOf(const char* sql, const std::string& cluster, std::optional<absl::Time> at) {
    return at.has_value() ? ExplainedPlan(sql, cluster, FormatRfc3339(*at)) : ExplainedPlan(sql, cluster);
  }
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
  // Now (at the history's end, its horizon): nine devices in ten held by their last pod, from the kept reads
  // (migration 0032's read of the open holds, one row a pod, and migration 0033's kept sums per namespace and
  // team).
  {
    pqxx::nontransaction txn(*conn_);
    EXPECT_EQ(txn.exec_params(kHoldersOfOpenHoldsSql, "").size(),
              static_cast<size_t>(shape_.devices - shape_.devices / 10));
  }
  auto holders_now = PgTeamFactsRepository(pool()).HoldersAt("", now_);
  ASSERT_THAT(holders_now, IsOk());
  int64_t held_now = 0;
  for (const PodTeamEvidence& pod : *holders_now) held_now += pod.held_milli;
  EXPECT_EQ(held_now, shape_.open_milli());
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

// "Now" (at or after the horizon, migrations 0032 and 0033): the summary and
// who holds what read the kept rows alone, never holds, devices or pods;
// migration 0032's read of who holds what (the benchmark's comparison) reads
// the open holds and the live pods' covering index, never a year of pods by
// key.
TEST_F(InstantPlansTest, NowReadsTheKeptRowsAndTheLivePods) {
  for (const std::string cluster : {"", "c1"}) {
    const std::multiset<std::string> summary = PlanOf(kSummarizeNowSql, cluster, std::nullopt);
    for (const std::string& node : summary) {
      EXPECT_THAT(
          node, ::testing::Not(::testing::AnyOf(::testing::HasSubstr(" on holds"), ::testing::HasSubstr(" on devices"),
                                                ::testing::HasSubstr(" on pods"))))
          << "cluster '" << cluster << "'";
    }
    EXPECT_THAT(summary, ::testing::Contains(::testing::HasSubstr("on fleet_now")));
    const std::multiset<std::string> kept = PlanOf(kHoldersNowSql, cluster, std::nullopt);
    for (const std::string& node : kept) {
      EXPECT_THAT(
          node, ::testing::Not(::testing::AnyOf(::testing::HasSubstr(" on holds"), ::testing::HasSubstr(" on devices"),
                                                ::testing::HasSubstr(" on pods"))))
          << "cluster '" << cluster << "'";
    }
    EXPECT_THAT(kept, ::testing::Contains(::testing::HasSubstr("on holders_now"))) << cluster;
    const std::multiset<std::string> holders = PlanOf(kHoldersOfOpenHoldsSql, cluster, std::nullopt);
    EXPECT_EQ(holders.count("Seq Scan on holds"), 0u) << ::testing::PrintToString(holders);
    EXPECT_EQ(holders.count("Seq Scan on pods"), 0u) << ::testing::PrintToString(holders);
    EXPECT_THAT(holders, ::testing::Contains(::testing::HasSubstr("(holds_open)"))) << cluster;
    EXPECT_THAT(holders, ::testing::Contains(::testing::HasSubstr("(pods_live_holders)"))) << cluster;
    EXPECT_THAT(holders, ::testing::Not(::testing::Contains(::testing::HasSubstr("(holds_closed_span)"))));
  }
}

// Before the horizon (migration 0036): the changes between a known summary
// and the instant read only the holds and device rows that began or ended
// between the two, found by their starts and ends, and each pair's other
// half by its key: the plan holds no scan of holds or pods. The seeded
// fleet's 240 device rows are read whole (cheaper than any index); with
// sequential scans ruled out, the device rows too are found by index.
TEST_F(InstantPlansTest, ChangesBetweenTwoInstantsAreFoundByTheirStartsAndEnds) {
  const absl::Time at = now_ - absl::Hours(24 * 10);
  InstantSource from_now{"c1", InstantSource::Base::kNow, at, at, at + absl::Minutes(7), -1};
  InstantSource from_checkpoint{
      "c2", InstantSource::Base::kCheckpoint, at - absl::Minutes(6), at - absl::Minutes(6), at, 1};
  for (const bool seq_scans : {true, false}) {
    for (const char* sql : {kSummaryFromSourcesSql, kHoldersFromSourcesSql}) {
      const std::string where = absl::StrCat(sql == kSummaryFromSourcesSql ? "summary" : "holders",
                                             seq_scans ? "" : ", sequential scans off", " ");
      pqxx::work txn(*conn_);
      txn.exec(seq_scans ? "RESET enable_seqscan" : "SET LOCAL enable_seqscan = off");
      auto rows =
          txn.exec(absl::StrCat("EXPLAIN (FORMAT JSON) ", FromSourcesSql(txn, {from_now, from_checkpoint}, sql)));
      const std::multiset<std::string> plan = testing::PlanNodes(rows[0][0].as<std::string>());
      for (const char* table : {"holds", "pods"}) {
        EXPECT_EQ(plan.count(absl::StrCat("Seq Scan on ", table)), 0u) << where << ::testing::PrintToString(plan);
      }
      EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr("(holds_by_time)"))) << where;
      EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr("(holds_by_end)"))) << where;
      EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr("(holds_by_device)"))) << where;
      if (!seq_scans) {
        EXPECT_EQ(plan.count("Seq Scan on devices"), 0u) << where << ::testing::PrintToString(plan);
      }
    }
  }
}

}  // namespace
}  // namespace fleetcap::store
