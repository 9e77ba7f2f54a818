// PgChargebackRepository keeps the same contract as the in-memory fake, on a
// fresh database per test, and reads whole days and months from the rollup
// tables, which hold exactly the sums of their hours.

#include "store/pg_chargeback_repository.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pqxx/pqxx"
#include "store/chargeback_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using chargeback_contract::kFeb;
using chargeback_contract::kT0;

class PgChargebackTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgChargebackRepository>(pool());
  }
  ChargebackWriteRepository& writer() { return *repo_; }
  ChargebackReadRepository& reader() { return *repo_; }
  int Count(const std::string& table) {
    return pqxx::nontransaction(*conn_).exec("SELECT count(*) FROM " + table)[0][0].as<int>();
  }

  std::unique_ptr<PgChargebackRepository> repo_;
};

FLEETCAP_CHARGEBACK_CONTRACT_TESTS(PgChargebackTest)

// Hours computed before devices were kept (listed by migration 0041 in a
// store with history) make a cluster's devices' use unknown over a window
// holding one, until ReplaceHours computes them again.
TEST_F(PgChargebackTest, HoursComputedBeforeDevicesWereKeptAreNamedUntilComputedAgain) {
  chargeback_contract::WriteDevices(*repo_);
  pqxx::nontransaction(*conn_).exec(
      "INSERT INTO chargeback_device_hours_missing (cluster, hour) SELECT 'c1', h FROM generate_series("
      "'2026-01-01T05:00:00Z'::timestamptz, '2026-01-01T07:00:00Z', interval '1 hour') h");
  const auto held = [&](int from, int to, const std::string& cluster) {
    auto read = repo_->DevicesHeld({kT0 + absl::Hours(from), kT0 + absl::Hours(to), cluster, "", "", false});
    EXPECT_TRUE(read.ok()) << read.status();
    return read.ok() ? read->clusters_not_kept : std::vector<std::string>{};
  };
  EXPECT_EQ(held(0, 5, ""), std::vector<std::string>{});
  EXPECT_EQ(held(0, 72, ""), std::vector<std::string>{"c1"});
  EXPECT_EQ(held(7, 8, "c1"), std::vector<std::string>{"c1"});
  EXPECT_EQ(held(0, 72, "c2"), std::vector<std::string>{});
  // Hours 5 and 6 computed again: hour 7 is still missing.
  ASSERT_TRUE(repo_->ReplaceHours("c1", kT0 + absl::Hours(5), kT0 + absl::Hours(7), {}, {}).ok());
  EXPECT_EQ(held(5, 7, ""), std::vector<std::string>{});
  EXPECT_EQ(held(5, 8, ""), std::vector<std::string>{"c1"});
  ASSERT_TRUE(repo_->ReplaceHours("c1", kT0 + absl::Hours(7), kT0 + absl::Hours(8), {}, {}).ok());
  EXPECT_EQ(held(0, 72, ""), std::vector<std::string>{});
}

TEST_F(PgChargebackTest, RollupsHoldOneRowPerKeyAndPeriod) {
  chargeback_contract::WriteFleet(*repo_);
  // 6 lines an hour, 3 January hours over 2 days and 1 February hour.
  EXPECT_EQ(Count("chargeback_hourly"), 24);
  EXPECT_EQ(Count("chargeback_daily"), 18);
  EXPECT_EQ(Count("chargeback_hourly_by_team"), 24);  // no two lines of an hour differ only in namespace or workload
  EXPECT_EQ(Count("chargeback_daily_by_team"), 18);
  EXPECT_EQ(Count("chargeback_monthly"), 12);
  // The rollups are what a whole-month report reads: take the hours away
  // behind the repository's back and the month still reads the same.
  auto before =
      repo_->Lines(chargeback_contract::Window(kT0, kFeb), ChargebackGroupBy{true}, ChargebackResolution::kNone);
  ASSERT_TRUE(before.ok()) << before.status();
  pqxx::nontransaction(*conn_).exec("DELETE FROM chargeback_hourly");
  auto after =
      repo_->Lines(chargeback_contract::Window(kT0, kFeb), ChargebackGroupBy{true}, ChargebackResolution::kNone);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*after, *before);
  EXPECT_EQ(after->size(), 3u);
}

// Whole days read by team come from chargeback_daily_by_team alone: take the
// hours and the workload rollup away behind the repository's back and the
// team read is unchanged, while a read by namespace (which needs them) is empty.
TEST_F(PgChargebackTest, ATeamReadOfWholeDaysSumsTheTeamRollup) {
  chargeback_contract::WriteFleet(*repo_);
  const auto window = chargeback_contract::Window(kT0, kT0 + absl::Hours(48));
  auto before = repo_->Lines(window, ChargebackGroupBy{true}, ChargebackResolution::kNone);
  ASSERT_TRUE(before.ok()) << before.status();
  pqxx::nontransaction(*conn_).exec("DELETE FROM chargeback_hourly; DELETE FROM chargeback_daily");
  auto after = repo_->Lines(window, ChargebackGroupBy{true}, ChargebackResolution::kNone);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*after, *before);
  EXPECT_EQ(after->size(), 3u);
  auto by_namespace = repo_->Lines(window, ChargebackGroupBy{true, false, true}, ChargebackResolution::kNone);
  ASSERT_TRUE(by_namespace.ok()) << by_namespace.status();
  EXPECT_TRUE(by_namespace->empty());
}

// A window not on day boundaries read by team, or by hour, comes from the
// team rollups alone: take the workload lines away behind the repository's
// back and those reads are unchanged, while a read by workload is empty.
TEST_F(PgChargebackTest, ATeamReadOfRaggedHoursSumsTheHourlyTeamRollup) {
  chargeback_contract::WriteFleet(*repo_);
  const auto ragged = chargeback_contract::Window(kT0 + absl::Hours(1), kT0 + absl::Hours(26));
  const ChargebackGroupBy by_team_and_model{true, false, false, false, true};
  auto before = repo_->Lines(ragged, by_team_and_model, ChargebackResolution::kNone);
  ASSERT_TRUE(before.ok()) << before.status();
  auto hours_before = repo_->Lines(ragged, by_team_and_model, ChargebackResolution::kHour);
  ASSERT_TRUE(hours_before.ok()) << hours_before.status();
  ASSERT_FALSE(before->empty());
  ASSERT_GT(hours_before->size(), before->size());
  pqxx::nontransaction(*conn_).exec("DELETE FROM chargeback_hourly; DELETE FROM chargeback_daily");
  auto after = repo_->Lines(ragged, by_team_and_model, ChargebackResolution::kNone);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*after, *before);
  auto hours_after = repo_->Lines(ragged, by_team_and_model, ChargebackResolution::kHour);
  ASSERT_TRUE(hours_after.ok()) << hours_after.status();
  EXPECT_EQ(*hours_after, *hours_before);
  auto by_workload = repo_->Lines(ragged, ChargebackGroupBy{true, false, false, true}, ChargebackResolution::kNone);
  ASSERT_TRUE(by_workload.ok()) << by_workload.status();
  EXPECT_TRUE(by_workload->empty());
}

// RowsRead is the planner's estimate of what Lines reads, close enough to
// tell a read of months of hourly lines from a read of a day's rollup: the
// API decides by it which reads are heavy (services/api/heavy_reads.h).
TEST_F(PgChargebackTest, RowsReadFollowsTheRowsTheReadGoesThrough) {
  constexpr int kDays = 40, kWorkloads = 25;
  std::vector<ChargebackLineRecord> lines;
  for (int h = 0; h < kDays * 24; ++h) {
    for (int w = 0; w < kWorkloads; ++w) {
      ChargebackLineRecord l = chargeback_contract::Line(kT0 + absl::Hours(h), "c0", "t-" + std::to_string(w % 5),
                                                         "m-" + std::to_string(w % 2), 100 + w);
      l.workload = "Job/w-" + std::to_string(w);
      lines.push_back(l);
    }
  }
  ASSERT_TRUE(repo_->ReplaceHours("c0", kT0, kT0 + absl::Hours(24 * kDays), lines, {}).ok());
  pqxx::nontransaction(*conn_).exec("ANALYZE");
  const ChargebackGroupBy by_workload{true, false, true, true, true};
  auto hourly = repo_->RowsRead(chargeback_contract::Window(kT0, kT0 + absl::Hours(24 * kDays)), by_workload,
                                ChargebackResolution::kHour);
  ASSERT_TRUE(hourly.ok()) << hourly.status();
  // 24,000 hourly lines; the estimate within a factor of two.
  EXPECT_GT(*hourly, static_cast<int64_t>(lines.size()) / 2);
  EXPECT_LT(*hourly, static_cast<int64_t>(lines.size()) * 2);
  // One day by team reads the daily team rollup: 10 rows (5 teams x 2 models).
  auto day = repo_->RowsRead(chargeback_contract::Window(kT0, kT0 + absl::Hours(24)), ChargebackGroupBy{true},
                             ChargebackResolution::kNone);
  ASSERT_TRUE(day.ok()) << day.status();
  EXPECT_LT(*day, 100);
}

}  // namespace
}  // namespace fleetcap::store
