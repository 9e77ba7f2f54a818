#include "optimizer/chargeback/window_loader.h"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "optimizer/chargeback/policy_timeline_source.h"
#include "store/memory_attribution_facts_repository.h"
#include "store/memory_team_facts_repository.h"
#include "store/memory_usage_rollup_repository.h"
#include "store/usage_contract.h"

namespace fleetcap::chargeback {
namespace {

const absl::Time kWindowT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

std::string LoaderPolicy(const std::string& ml_team, const std::string& basis, const std::string& price) {
  return absl::StrCat(R"(version: 1
teams:
  - name: research
  - name: vision
namespaces:
  - namespace: ml
    team: )",
                      ml_team, R"(
prices:
  - model: H100
    from: 2025-01-01T00:00:00Z
    per_device_hour: ")",
                      price, R"("
attribution:
  basis: )",
                      basis, "\n");
}

store::LivePod LoaderPod(const std::string& uid, const std::string& ns) {
  return {{uid, ns, uid + "-pod", "", "Job", "train", "Running", kWindowT0 - absl::Hours(10),
           kWindowT0 - absl::Hours(10), std::nullopt, 1000, false},
          "node-1"};
}

class WindowLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::InventoryChanges c1;
    c1.cluster = "c1";
    c1.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c1.devices = {{"GPU-0", "node-1", 0, "H100", kWindowT0 - absl::Hours(10), std::nullopt}};
    c1.pods = {LoaderPod("uid-a", "ml")};
    c1.holds = {{"uid-a", "GPU-0", 500, kWindowT0 - absl::Hours(1), std::nullopt}};
    ASSERT_TRUE(inventory_.Apply(c1).ok());
    store::InventoryChanges c2;
    c2.cluster = "c2";
    c2.types = c1.types;
    c2.devices = {{"GPU-9", "node-9", 0, "H100", kWindowT0 + absl::Minutes(30), std::nullopt}};
    ASSERT_TRUE(inventory_.Apply(c2).ok());
    teams_.AddNamespace("c1", {"ml", {{"team", "vision"}}, {}});
  }

  absl::StatusOr<LoadedWindow> Load(absl::Time start, absl::Time end) {
    return LoadWindow({&facts_, &teams_, &timeline_}, start, end);
  }

  store::MemoryLiveInventoryRepository inventory_;
  store::MemoryUsageRepository usage_{store::usage_contract::AtT0(), &inventory_};
  store::MemoryUsageRollupRepository rollups_{&usage_};
  store::MemoryAttributionFactsRepository facts_{&inventory_, &rollups_};
  store::MemoryTeamFactsRepository teams_;
  policy::PolicyTimeline timeline_{PoliciesOf(&teams_)};
};

TEST_F(WindowLoaderTest, ReadsEveryClustersFactsIntoOneInput) {
  teams_.Apply(LoaderPolicy("research", "request", "2.00"), kWindowT0 - absl::Hours(24));
  auto window = Load(kWindowT0, kWindowT0 + absl::Hours(2));
  ASSERT_TRUE(window.ok()) << window.status();
  EXPECT_EQ(window->clusters, (std::vector<std::string>{"c1", "c2"}));
  ASSERT_EQ(window->pieces.size(), 1u);
  const auto& input = window->pieces[0].input;
  EXPECT_EQ(input.start, kWindowT0);
  EXPECT_EQ(input.end, kWindowT0 + absl::Hours(2));
  ASSERT_EQ(input.devices.size(), 2u);
  EXPECT_EQ(input.devices[0].cluster, "c1");
  EXPECT_EQ(input.devices[1].cluster, "c2");
  EXPECT_EQ(input.devices[1].from, kWindowT0 + absl::Minutes(30));
  ASSERT_EQ(input.holds.size(), 1u);
  EXPECT_EQ(input.holds[0].cluster, "c1");
  EXPECT_EQ(input.holds[0].namespace_name, "ml");
  EXPECT_EQ(input.holds[0].workload, "Job/train");
  EXPECT_EQ(input.holds[0].milli, 500);
}

TEST_F(WindowLoaderTest, TeamsFollowTheVersionInForceAtEachSecond) {
  teams_.Apply(LoaderPolicy("research", "request", "2.00"), kWindowT0 - absl::Hours(24));
  teams_.Apply(LoaderPolicy("vision", "request", "2.00"), kWindowT0 + absl::Minutes(80));
  auto window = Load(kWindowT0, kWindowT0 + absl::Hours(3));
  ASSERT_TRUE(window.ok()) << window.status();
  const auto spans = window->teams->TeamsDuring({"c1", "ml", ""}, kWindowT0, kWindowT0 + absl::Hours(3));
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].team, "research");
  EXPECT_EQ(spans[0].to, kWindowT0 + absl::Minutes(80));
  EXPECT_EQ(spans[1].team, "vision");
  EXPECT_EQ(spans[1].to, kWindowT0 + absl::Hours(3));
  EXPECT_EQ(window->pieces.size(), 1u);  // same options: one engine call
}

TEST_F(WindowLoaderTest, SplitsAtTheFirstHourUnderDifferentOptions) {
  teams_.Apply(LoaderPolicy("research", "request", "2.00"), kWindowT0 - absl::Hours(24));
  teams_.Apply(LoaderPolicy("research", "usage", "2.00"), kWindowT0 + absl::Minutes(80));
  teams_.Apply(LoaderPolicy("vision", "usage", "2.00"), kWindowT0 + absl::Minutes(190));  // teams only: no split
  auto window = Load(kWindowT0, kWindowT0 + absl::Hours(5));
  ASSERT_TRUE(window.ok()) << window.status();
  ASSERT_EQ(window->pieces.size(), 2u);
  EXPECT_EQ(window->pieces[0].input.start, kWindowT0);
  EXPECT_EQ(window->pieces[0].input.end, kWindowT0 + absl::Hours(2));
  EXPECT_EQ(window->pieces[0].input.options.basis, "request");
  EXPECT_EQ(window->pieces[0].options_version, 1);
  EXPECT_EQ(window->pieces[1].input.start, kWindowT0 + absl::Hours(2));
  EXPECT_EQ(window->pieces[1].input.end, kWindowT0 + absl::Hours(5));
  EXPECT_EQ(window->pieces[1].input.options.basis, "usage");
  EXPECT_EQ(window->pieces[1].options_version, 2);
  for (const auto& piece : window->pieces) {
    EXPECT_EQ(piece.input.devices.size(), 2u);
    EXPECT_EQ(piece.input.holds.size(), 1u);
  }
}

TEST_F(WindowLoaderTest, PricesAreTheNewestVersionsEvenForEarlierHours) {
  teams_.Apply(LoaderPolicy("research", "request", "2.00"), kWindowT0 - absl::Hours(24));
  auto before = Load(kWindowT0, kWindowT0 + absl::Hours(1));
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_EQ(before->pieces[0].input.prices.size(), 1u);
  EXPECT_EQ(before->pieces[0].input.prices[0].micro_per_device_hour, 2'000'000);
  teams_.Apply(LoaderPolicy("research", "request", "3.25"), kWindowT0 + absl::Hours(30));
  auto after = Load(kWindowT0, kWindowT0 + absl::Hours(1));
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->pieces[0].input.prices.size(), 1u);
  EXPECT_EQ(after->pieces[0].input.prices[0].micro_per_device_hour, 3'250'000);
  EXPECT_EQ(after->pieces[0].options_version, 1);
}

TEST_F(WindowLoaderTest, NamespaceEvidenceDecidesWhereNoRuleDoes) {
  teams_.Apply(R"(version: 1
teams:
  - name: vision
team_label_keys: [team]
)",
               kWindowT0 - absl::Hours(24));
  auto window = Load(kWindowT0, kWindowT0 + absl::Hours(1));
  ASSERT_TRUE(window.ok()) << window.status();
  const auto spans = window->teams->TeamsDuring({"c1", "ml", ""}, kWindowT0, kWindowT0 + absl::Hours(1));
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].team, "vision");
}

TEST_F(WindowLoaderTest, RefusesWindowsNotOfWholeHours) {
  EXPECT_EQ(Load(kWindowT0, kWindowT0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Load(kWindowT0 + absl::Minutes(1), kWindowT0 + absl::Hours(1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Load(kWindowT0 + absl::Hours(2), kWindowT0).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::chargeback
