#include "optimizer/chargeback/chargeback_run.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "optimizer/attribution/attribution_engine.h"
#include "optimizer/chargeback/hours.h"
#include "optimizer/chargeback/policy_timeline_source.h"
#include "store/memory_attribution_facts_repository.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_optimizer_state_repository.h"
#include "store/memory_team_facts_repository.h"
#include "store/usage_contract.h"

namespace fleetcap::chargeback {
namespace {

const absl::Time kT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z, a month of 744 hours

absl::Time H(int hours) { return kT0 + absl::Hours(hours); }

// One H100 at `price` a device-hour from `price_from`, and a fixed cost of
// 744.00 a month: 1.00 an hour in January.
std::string Policy(const std::string& price, const std::string& price_from = "2025-01-01T00:00:00Z") {
  return absl::StrCat(R"(version: 1
teams:
  - name: research
namespaces:
  - namespace: ml
    team: research
prices:
  - model: H100
    from: 2025-01-01T00:00:00Z
    per_device_hour: "3.60"
)",
                      price_from == "2025-01-01T00:00:00Z" ? "" : absl::StrCat(R"(    to: )", price_from, "\n"),
                      price_from == "2025-01-01T00:00:00Z" ? ""
                                                           : absl::StrCat("  - model: H100\n    from: ", price_from,
                                                                          "\n    per_device_hour: \"", price, "\"\n"),
                      R"(attribution:
  fixed_monthly_costs:
    - name: support
      amount: "744.00"
)");
}

store::LivePod APod(const std::string& uid, const std::string& ns) {
  return {{uid, ns, uid + "-pod", "", "Job", "train", "Running", kT0, kT0, std::nullopt, 1000, false}, "node-1"};
}

int64_t Sum(const std::vector<store::ChargebackSum>& sums) {
  int64_t total = 0;
  for (const auto& s : sums) total += s.total_cost_micro;
  return total;
}

class ChargebackRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::InventoryChanges c1;
    c1.cluster = "c1";
    c1.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c1.devices = {{"GPU-0", "node-1", 0, "H100", kT0, std::nullopt}};
    c1.pods = {APod("uid-a", "ml")};
    c1.holds = {{"uid-a", "GPU-0", 500, kT0, std::nullopt}};
    ASSERT_TRUE(inventory_.Apply(c1).ok());
    teams_.Apply(Policy("3.60"), kT0 - absl::Hours(24));
  }

  absl::StatusOr<PassReport> Pass() { return run_.Pass(); }

  // The sums of hours [start, end), grouped by cluster and line kind.
  std::vector<store::ChargebackSum> Sums(absl::Time start, absl::Time end) {
    store::ChargebackFilter filter;
    filter.start = start;
    filter.end = end;
    store::ChargebackGroupBy by;
    by.cluster = true;
    by.line_kind = true;
    auto sums = chargeback_.Lines(filter, by, store::ChargebackResolution::kNone);
    EXPECT_TRUE(sums.ok()) << sums.status();
    return sums.ok() ? *sums : std::vector<store::ChargebackSum>{};
  }

  // Starts 50h05m after kT0: hours up to 49 (ending at 50h) are closed only at 50h10m.
  SimulatedClock clock_{H(50) + absl::Minutes(5)};
  store::MemoryLiveInventoryRepository inventory_;
  store::MemoryUsageRepository usage_{store::usage_contract::AtT0(), &inventory_};
  store::MemoryUsageRollupRepository memory_rollups_{&usage_};
  store::MemoryAttributionFactsRepository facts_{&inventory_, &memory_rollups_};
  store::MemoryTeamFactsRepository teams_;
  policy::PolicyTimeline timeline_{PoliciesOf(&teams_)};
  store::MemoryChargebackRepository chargeback_{&clock_};
  store::MemoryOptimizerStateRepository state_;
  RunOptions options_{absl::Minutes(10), 24, absl::Hours(24)};
  ChargebackRun run_{
      {{&facts_, &teams_, &timeline_}, &memory_rollups_, &chargeback_, &state_, &chargeback_}, options_, &clock_};
};

TEST(Hours, AnHourClosesOnlyAfterTheCloseDelay) {
  EXPECT_EQ(ClosedThrough(H(3) + absl::Minutes(9), absl::Minutes(10)), H(2));
  EXPECT_EQ(ClosedThrough(H(3) + absl::Minutes(10), absl::Minutes(10)), H(3));
  EXPECT_EQ(HourAtOrAfter(H(3) + absl::Seconds(1)), H(4));
  EXPECT_EQ(HourAtOrAfter(H(3)), H(3));
}

TEST(Hours, ContiguousWindowsKeepToTheBatchSize) {
  const auto windows = ContiguousWindows({H(0), H(1), H(2), H(5), H(6)}, 2);
  ASSERT_EQ(windows.size(), 3u);
  EXPECT_EQ(windows[0].start, H(0));
  EXPECT_EQ(windows[0].end, H(2));
  EXPECT_EQ(windows[1].start, H(2));
  EXPECT_EQ(windows[1].end, H(3));
  EXPECT_EQ(windows[2].start, H(5));
  EXPECT_EQ(windows[2].end, H(7));
}

TEST_F(ChargebackRunTest, APassComputesClosedHoursFromHistoryInBatches) {
  auto pass = Pass();
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ(pass->closed_through, H(49));
  EXPECT_EQ(pass->watermark, H(49));
  EXPECT_EQ(pass->computed.hours, 49);
  using Call = std::tuple<std::string, absl::Time, absl::Time>;
  EXPECT_EQ(memory_rollups_.RollUpCalls(),
            (std::vector<Call>{{"c1", H(0), H(24)}, {"c1", H(24), H(48)}, {"c1", H(48), H(49)}}));
  EXPECT_TRUE(Sums(H(49), H(50)).empty());  // the open hour is not computed

  clock_.Advance(absl::Minutes(5));  // 50h10m: hour 49 closes
  auto next = Pass();
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->computed.hours, 1);
  EXPECT_EQ(next->watermark, H(50));
  auto again = Pass();
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->computed.hours, 0);
}

TEST_F(ChargebackRunTest, AStopRequestEndsTheCatchUpBetweenBatches) {
  const std::atomic<bool> stop{true};
  auto pass = run_.Pass(&stop);
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ(pass->computed.hours, 0);
  EXPECT_FALSE(pass->watermark.has_value());
}

TEST_F(ChargebackRunTest, LinesAddUpToTheEnginesTotalWithFixedLinesUnderTheFleet) {
  auto pass = Pass();
  ASSERT_TRUE(pass.ok()) << pass.status();
  const auto sums = Sums(H(0), H(49));
  // 49 hours of one device at 3.60 an hour, and 1.00 an hour of fixed cost.
  EXPECT_EQ(pass->computed.total_cost_micro, 49 * 3'600'000 + 49 * 1'000'000);
  EXPECT_EQ(Sum(sums), pass->computed.total_cost_micro);
  int64_t fixed = -1;
  for (const auto& s : sums) {
    if (s.line_kind == "fixed") {
      EXPECT_EQ(s.cluster, "");
      fixed = s.total_cost_micro;
    } else {
      EXPECT_EQ(s.cluster, "c1");
    }
  }
  EXPECT_EQ(fixed, 49 * 1'000'000);
}

// The devices held are stored with the lines: GPU-0 held half of each hour.
TEST_F(ChargebackRunTest, TheDevicesHeldAreStoredWithTheirLines) {
  ASSERT_TRUE(Pass().ok());
  auto devices = chargeback_.DevicesHeld({H(0), H(49), "", "", "", true});
  ASSERT_TRUE(devices.ok()) << devices.status();
  ASSERT_EQ(devices->sums.size(), 1u);
  const store::DeviceUseSum& gpu = devices->sums.front();
  EXPECT_EQ(std::tie(gpu.cluster, gpu.model, gpu.node, gpu.device_id),
            std::make_tuple(std::string("c1"), std::string("H100"), std::string("node-1"), std::string("GPU-0")));
  EXPECT_EQ(gpu.held_milli_seconds, 49 * 500 * 3600);
  int64_t held = 0;
  for (const auto& s : Sums(H(0), H(49))) held += s.held_milli_seconds;
  EXPECT_EQ(gpu.held_milli_seconds, held);
  EXPECT_EQ(gpu.observed_milli_seconds, 0);  // no telemetry: its use unknown
}

TEST_F(ChargebackRunTest, MarkedHoursWithinTheSettleWindowAreRecomputedOlderOnesDropped) {
  ASSERT_TRUE(Pass().ok());
  // A second device was in service all along but stored late.
  store::InventoryChanges late;
  late.cluster = "c1";
  late.devices = {{"GPU-1", "node-1", 1, "H100", kT0, std::nullopt}};
  ASSERT_TRUE(inventory_.Apply(late).ok());
  ASSERT_TRUE(chargeback_.MarkForRecompute("c1", {H(2), H(40), H(41)}, "corrected inventory").ok());

  auto pass = Pass();  // now 50h05m, settle window 24h: from hour 26
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ(pass->marks_dropped, 1);
  EXPECT_EQ(pass->recomputed, (std::map<std::string, int64_t>{{"corrected inventory", 2}}));
  EXPECT_EQ(Sum(Sums(H(40), H(42))), 2 * (2 * 3'600'000 + 1'000'000));
  EXPECT_EQ(Sum(Sums(H(2), H(3))), 3'600'000 + 1'000'000);  // left as it was
  EXPECT_EQ(Sum(Sums(H(39), H(40))), 3'600'000 + 1'000'000);
}

// Another instance leased the marks and died before storing the hours: they
// stay marked, untouched while its lease lasts, and recomputed after it.
TEST_F(ChargebackRunTest, MarksLeasedByAnInstanceThatDiedAreRecomputedOnceItsLeaseRunsOut) {
  ASSERT_TRUE(Pass().ok());
  store::InventoryChanges late;
  late.cluster = "c1";
  late.devices = {{"GPU-1", "node-1", 1, "H100", kT0, std::nullopt}};
  ASSERT_TRUE(inventory_.Apply(late).ok());
  ASSERT_TRUE(chargeback_.MarkForRecompute("c1", {H(40), H(41)}, "corrected inventory").ok());
  auto dead = chargeback_.LeaseRecompute("c1", 10, "dead:1", clock_.Now(), options_.recompute_lease);
  ASSERT_TRUE(dead.ok()) << dead.status();
  ASSERT_EQ(dead->size(), 2u);

  auto during = Pass();
  ASSERT_TRUE(during.ok()) << during.status();
  EXPECT_TRUE(during->recomputed.empty());
  EXPECT_EQ(Sum(Sums(H(40), H(42))), 2 * (3'600'000 + 1'000'000));  // as they were

  clock_.Advance(options_.recompute_lease);
  auto after = Pass();
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->recomputed, (std::map<std::string, int64_t>{{"corrected inventory", 2}}));
  EXPECT_EQ(Sum(Sums(H(40), H(42))), 2 * (2 * 3'600'000 + 1'000'000));
  // Completed: the next pass has nothing to recompute.
  auto next = Pass();
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_TRUE(next->recomputed.empty());
}

TEST_F(ChargebackRunTest, ANewPolicyVersionRecomputesFromItsEarliestChange) {
  ASSERT_TRUE(Pass().ok());
  teams_.Apply(Policy("7.20", "2026-01-02T21:00:00Z"), clock_.Now());  // a price from hour 45
  auto pass = Pass();
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ(pass->hours_marked, 4);
  EXPECT_EQ(pass->recomputed, (std::map<std::string, int64_t>{{"policy version 2", 4}}));
  EXPECT_EQ(Sum(Sums(H(44), H(45))), 3'600'000 + 1'000'000);
  EXPECT_EQ(Sum(Sums(H(45), H(49))), 4 * (7'200'000 + 1'000'000));

  // Seen once: the next pass marks nothing.
  auto again = Pass();
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->hours_marked, 0);
  EXPECT_TRUE(again->recomputed.empty());
}

TEST_F(ChargebackRunTest, ANewVersionChangingNoPriceMarksNothingComputedBeforeIt) {
  ASSERT_TRUE(Pass().ok());
  teams_.Apply(Policy("3.60"), clock_.Now());
  auto pass = Pass();
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ(pass->hours_marked, 0);
}

TEST_F(ChargebackRunTest, RejectedFactsAndUnpricedTimeAreCountedAndCostOnlyThemselves) {
  store::InventoryChanges odd;
  odd.cluster = "c2";
  odd.types = {{"T4", "nvidia", "nvidia.com/gpu"}};
  odd.devices = {{"GPU-7", "node-7", 0, "T4", H(47), std::nullopt}};  // no price for T4
  odd.holds = {{"uid-z", "GPU-404", 1000, H(48), std::nullopt}};      // a device the inventory does not know
  ASSERT_TRUE(inventory_.Apply(odd).ok());
  auto pass = Pass();
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ(pass->computed.rejected_facts, 1);
  EXPECT_EQ(pass->computed.unpriced_device_seconds, 2 * 3600);
  EXPECT_EQ(pass->computed.total_cost_micro, 49 * 3'600'000 + 49 * 1'000'000);
}

// Two teams in two clusters, a fixed cost that does not divide evenly into
// hours, idle shared within each cluster: the lines stored cluster by cluster
// and the fixed lines spread afterwards from the stored workload lines are
// exactly those of one engine run over the whole fleet.
TEST_F(ChargebackRunTest, ClusterByClusterLinesEqualOneFleetWideEngineRun) {
  teams_.Apply(R"(version: 2
teams:
  - name: research
  - name: product
namespaces:
  - namespace: ml
    team: research
  - namespace: web
    team: product
prices:
  - model: H100
    from: 2025-01-01T00:00:00Z
    per_device_hour: "3.60"
  - model: H100
    cluster: c2
    from: 2025-01-01T00:00:00Z
    per_device_hour: "2.10"
attribution:
  fixed_monthly_costs:
    - name: support
      amount: "1000.01"
    - name: network
      amount: "0.07"
)",
               kT0 - absl::Hours(12));
  store::InventoryChanges c2;
  c2.cluster = "c2";
  c2.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
  c2.devices = {{"GPU-0", "node-a", 0, "H100", kT0, std::nullopt},
                {"GPU-1", "node-a", 1, "H100", kT0 + absl::Minutes(17), std::nullopt}};
  c2.pods = {APod("uid-b", "web"), APod("uid-c", "ml"), APod("uid-d", "web")};
  c2.pods[0].node = c2.pods[1].node = c2.pods[2].node = "node-a";
  c2.holds = {{"uid-b", "GPU-0", 250, kT0, std::nullopt},
              {"uid-c", "GPU-1", 1000, H(3) + absl::Minutes(5), H(20)},
              {"uid-d", "GPU-0", 333, H(7), std::nullopt}};
  ASSERT_TRUE(inventory_.Apply(c2).ok());

  auto pass = Pass();
  ASSERT_TRUE(pass.ok()) << pass.status();
  ASSERT_EQ(pass->watermark, H(49));

  // The same hours in one engine run over the whole fleet, as before the work was shared.
  auto window = LoadWindow({&facts_, &teams_, &timeline_}, H(0), H(49));
  ASSERT_TRUE(window.ok()) << window.status();
  std::map<std::vector<std::string>, std::vector<int64_t>> expected;
  int64_t fixed_lines = 0;
  for (const WindowPiece& piece : window->pieces) {
    auto engine = attribution::Attribute(piece.input, *window->teams, [&](attribution::HourLines&& hour) {
      for (const auto& l : hour.lines) {
        if (l.line_kind == "fixed") ++fixed_lines;
        expected[{FormatRfc3339(l.hour), l.cluster, l.team, l.namespace_name, l.workload, l.model, l.line_kind}] = {
            l.held_milli_seconds, l.used_milli_seconds, l.direct_cost_micro,
            l.idle_cost_micro,    l.shared_cost_micro,  l.total_cost_micro};
      }
    });
    ASSERT_TRUE(engine.ok()) << engine.status();
  }
  EXPECT_GT(fixed_lines, 49);  // both teams get fixed lines in most hours

  store::ChargebackFilter filter;
  filter.start = H(0);
  filter.end = H(49);
  store::ChargebackGroupBy every{true, true, true, true, true, true};
  auto stored = chargeback_.Lines(filter, every, store::ChargebackResolution::kHour);
  ASSERT_TRUE(stored.ok()) << stored.status();
  std::map<std::vector<std::string>, std::vector<int64_t>> actual;
  for (const auto& l : *stored) {
    actual[{FormatRfc3339(l.start), l.cluster, l.team, l.namespace_name, l.workload, l.model, l.line_kind}] = {
        l.held_milli_seconds, l.used_milli_seconds, l.direct_cost_micro,
        l.idle_cost_micro,    l.shared_cost_micro,  l.total_cost_micro};
  }
  EXPECT_EQ(actual.size(), expected.size());
  EXPECT_EQ(actual, expected);
}

TEST_F(ChargebackRunTest, ComputeHoursRewritesTheHoursAskedWhateverTheSettleWindow) {
  ASSERT_TRUE(Pass().ok());
  store::InventoryChanges late;
  late.cluster = "c1";
  late.devices = {{"GPU-1", "node-1", 1, "H100", kT0, std::nullopt}};
  ASSERT_TRUE(inventory_.Apply(late).ok());
  auto computed = run_.ComputeHours(H(1), H(3));
  ASSERT_TRUE(computed.ok()) << computed.status();
  EXPECT_EQ(computed->hours, 2);
  EXPECT_EQ(Sum(Sums(H(1), H(3))), 2 * (2 * 3'600'000 + 1'000'000));
  EXPECT_EQ(Sum(Sums(H(0), H(1))), 3'600'000 + 1'000'000);
  EXPECT_EQ(run_.ComputeHours(H(3), H(3)).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::chargeback
