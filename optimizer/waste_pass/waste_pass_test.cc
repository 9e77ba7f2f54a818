// The waste pass on the store's memory repositories: a pod idle for eight
// hours, caught up in batches shorter than idle_for, is found whole; a
// marked hour is computed again.

#include "optimizer/waste_pass/waste_pass.h"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "optimizer/chargeback/policy_timeline_source.h"
#include "optimizer/waste_pass/waste_loader.h"
#include "store/memory_attribution_facts_repository.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_insight_waste_repository.h"
#include "store/memory_team_facts_repository.h"
#include "store/usage_contract.h"

namespace fleetcap::optimizer {
namespace {

const absl::Time kWasteT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

absl::Time At(int hours, int minutes = 0) { return kWasteT0 + absl::Hours(hours) + absl::Minutes(minutes); }

// An H100 at 3.60 a device-hour: 0.06 a minute, so no run's money needs rounding.
constexpr const char* kWastePolicy = R"(version: 1
teams: [{name: research}]
namespaces: [{namespace: ml, team: research}]
prices: [{model: H100, from: 2025-01-01T00:00:00Z, per_device_hour: "3.60"}]
insights: {idle_below: 5%, idle_for: 4h}
)";

class WastePassTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::InventoryChanges c1;
    c1.cluster = "c1";
    c1.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c1.devices = {{"GPU-0", "node-1", 0, "H100", kWasteT0, std::nullopt}};
    c1.pods = {
        {{"uid-a", "ml", "train-0", "", "Job", "train", "Running", kWasteT0, kWasteT0, std::nullopt, 1000, false},
         "node-1"}};
    c1.holds = {{"uid-a", "GPU-0", 1000, kWasteT0, std::nullopt}};
    ASSERT_TRUE(inventory_.Apply(c1).ok());
    teams_.Apply(kWastePolicy, kWasteT0 - absl::Hours(24));
    // 1% for the first eight hours, 90% after; the chargeback has computed twelve.
    Readings(At(0), At(8), 0.01);
    Readings(At(8), At(12), 0.9);
    ASSERT_TRUE(chargeback_.AdvanceWatermark("c1", At(12)).ok());
  }

  void Readings(absl::Time from, absl::Time to, double util) {
    std::vector<store::UsageMinuteRow> rows;
    for (absl::Time m = from; m < to; m += absl::Minutes(1)) {
      rows.push_back(store::usage_contract::PodRow("GPU-0", "uid-a", "train-0", absl::ToUnixMillis(m), util));
    }
    ASSERT_TRUE(usage_.WriteMinutes("c1", rows, "pull").ok());
  }

  std::vector<store::IdlePieceRecord> Pieces() {
    auto pieces = waste_.Pieces({At(0), At(12), {}, "", ""});
    EXPECT_TRUE(pieces.ok()) << pieces.status();
    return pieces.ok() ? *pieces : std::vector<store::IdlePieceRecord>{};
  }

  store::MemoryLiveInventoryRepository inventory_;
  store::MemoryUsageRepository usage_{store::usage_contract::AtT0(), &inventory_};
  store::MemoryUsageRollupRepository rollups_{&usage_};
  store::MemoryAttributionFactsRepository facts_{&inventory_, &rollups_};
  store::MemoryTeamFactsRepository teams_;
  policy::PolicyTimeline timeline_{chargeback::PoliciesOf(&teams_)};
  SimulatedClock clock_{At(13)};
  store::MemoryChargebackRepository chargeback_{&clock_};
  store::MemoryInsightWasteRepository waste_;
  WastePass pass_{{{&facts_, &teams_, &timeline_}, &usage_, &chargeback_, &waste_}, {3, 1000}};
};

TEST_F(WastePassTest, ARunLongerThanABatchIsFoundWholeFromItsFirstHour) {
  auto report = pass_.Run();
  ASSERT_TRUE(report.ok()) << report.status();
  const std::vector<store::IdlePieceRecord> pieces = Pieces();
  ASSERT_EQ(pieces.size(), 8u);
  int64_t wasted = 0, cost = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_EQ(pieces[i].start, At(static_cast<int>(i)));
    EXPECT_EQ(pieces[i].team, "research");
    EXPECT_EQ(pieces[i].model, "H100");
    wasted += pieces[i].wasted_milli_seconds;
    cost += pieces[i].wasted_cost_micro;
  }
  EXPECT_EQ(wasted, 8 * 3'600'000);
  EXPECT_EQ(cost, 28'800'000);  // 8 h x 3.60
  auto sums = waste_.WorkloadSums({At(0), At(12), {}, "", ""});
  ASSERT_TRUE(sums.ok());
  ASSERT_EQ(sums->size(), 1u);
  EXPECT_EQ((*sums)[0].held_milli_seconds, 12 * 3'600'000);
  EXPECT_EQ((*sums)[0].observed_milli_seconds, 12 * 3'600'000);
  auto watermark = waste_.Watermark("c1");
  ASSERT_TRUE(watermark.ok());
  EXPECT_EQ(*watermark, At(12));
}

TEST_F(WastePassTest, AMarkedHourIsComputedAgainWithTheRunsAcrossIt) {
  ASSERT_TRUE(pass_.Run().ok());
  // A late busy minute at 03:30 splits the run: 00:00-03:30 is too short,
  // 03:31-08:00 (4 h 29 min) is waste.
  Readings(At(3, 30), At(3, 31), 0.9);
  ASSERT_TRUE(waste_.MarkHours("c1", {At(3)}, At(13)).ok());
  auto report = pass_.Run();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->recomputed, 1);
  const std::vector<store::IdlePieceRecord> pieces = Pieces();
  ASSERT_EQ(pieces.size(), 5u);
  EXPECT_EQ(pieces.front().start, At(3, 31));
  int64_t cost = 0;
  for (const auto& p : pieces) cost += p.wasted_cost_micro;
  EXPECT_EQ(cost, 269 * 60'000);  // 269 minutes at 0.06
  auto marks = waste_.Marks("c1", At(12), 10);
  ASSERT_TRUE(marks.ok());
  EXPECT_TRUE(marks->empty());
}

TEST_F(WastePassTest, NothingIsComputedBeforeTheChargebackHasAnHour) {
  store::MemoryChargebackRepository empty{&clock_};
  WastePass pass{{{&facts_, &teams_, &timeline_}, &usage_, &empty, &waste_}, {}};
  auto report = pass.Run();
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->hours, 0);
  EXPECT_TRUE(Pieces().empty());
}

TEST(WorkloadBatchesTest, ABatchClosesAtTheEndOfAWorkloadOnceItHasEnoughHolds) {
  const auto hold = [](const char* ns, const char* workload, const char* pod) {
    insights::WasteHold h;
    h.namespace_name = ns;
    h.workload = workload;
    h.pod_uid = pod;
    return h;
  };
  // a/x has three holds, a/y one, b/x two: "x" twice, in two namespaces.
  const std::vector<insights::WasteHold> holds = {hold("a", "x", "p1"), hold("a", "x", "p1"), hold("a", "x", "p2"),
                                                  hold("a", "y", "p3"), hold("b", "x", "p4"), hold("b", "x", "p5")};
  const auto cuts = [&](size_t batch_holds) {
    std::vector<std::pair<size_t, size_t>> out;
    for (const HoldBatch& b : WorkloadBatches(holds, batch_holds)) out.emplace_back(b.first, b.last);
    return out;
  };
  using Cuts = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(cuts(1), (Cuts{{0, 3}, {3, 4}, {4, 6}}));
  EXPECT_EQ(cuts(4), (Cuts{{0, 4}, {4, 6}}));
  EXPECT_EQ(cuts(100), (Cuts{{0, 6}}));
  EXPECT_TRUE(WorkloadBatches({}, 3).empty());
}

}  // namespace
}  // namespace fleetcap::optimizer
