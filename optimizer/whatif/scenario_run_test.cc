#include "optimizer/whatif/scenario_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "optimizer/whatif/scenario_parser.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::whatif {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// Two teams of one org on ten H100s at 2 a device-hour.
constexpr const char* kPolicy = R"(version: 1
teams:
  - name: org
    kind: org
  - name: team-a
    parent: org
  - name: team-b
    parent: org
flavors:
  - name: h100
    model: H100
    capacity: 10
prices:
  - model: H100
    from: 2026-01-01T00:00:00Z
    per_device_hour: 2
allocation:
  - team: team-a
    flavor: h100
    guarantee: 4
  - team: team-b
    flavor: h100
    guarantee: 4
)";

absl::Time At(int y, int m, int d, int h = 0) {
  return absl::FromCivil(absl::CivilHour(y, m, d, h), absl::UTCTimeZone());
}

// A day of history ending 2026-12-15 12:00: team-a holds 3 devices, team-b 1, every hour.
PlanningState State() {
  PlanningState s;
  s.now = At(2026, 12, 15, 12);
  s.history_end = s.now;
  s.history_hours = 24;
  s.policy_version = 5;
  s.policy_yaml = kPolicy;
  s.demand_options.lookback = absl::Hours(24);
  for (int h = 0; h < 24; ++h) {
    const absl::Time hour = s.history_end - absl::Hours(24 - h);
    s.held.push_back({"team-a", "c1", "H100", hour, 3000 * 3600});
    s.held.push_back({"team-b", "c1", "H100", hour, 1000 * 3600});
  }
  return s;
}

ScenarioDocument Scenario(const std::string& yaml) {
  ParsedScenario parsed = ParseScenario(yaml);
  EXPECT_TRUE(parsed.ok()) << policy::FormatPolicyErrors("scenario", parsed.errors);
  return parsed.document;
}

constexpr const char* kShrinkAndDouble = R"(version: 1
capacity:
  - flavor: h100
    remove: 7
    from: 2027-01-16T00:00:00Z
demand:
  - team: team-a
    factor: 2
prices:
  - flavor: h100
    per_device_hour: 3
    from: 2027-01-01T00:00:00Z
)";

TEST(RunScenario, BaselineBillsTheRecentAverageAtThePolicysPrice) {
  auto c = RunScenario(State(), Scenario("version: 1\n"), nullptr);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->month_start, At(2027, 1, 1));
  EXPECT_EQ(c->month_end, At(2027, 2, 1));
  const ScenarioSide& b = c->baseline;
  EXPECT_EQ(b.policy_version, 5);
  ASSERT_EQ(b.bills.size(), 2u);
  // 744 hours of January: 3 devices x 2 x 744 and 1 x 2 x 744; the six idle devices, the rest.
  EXPECT_EQ(b.bills[0].team, "team-a");
  EXPECT_EQ(b.bills[0].micro, 4'464'000'000);
  EXPECT_EQ(b.bills[0].held_milli_hours, 3000 * 744);
  EXPECT_EQ(b.bills[1].micro, 1'488'000'000);
  EXPECT_EQ(b.idle_micro, 8'928'000'000);
  EXPECT_EQ(b.total_micro, 14'880'000'000);
  ASSERT_EQ(b.flavors.size(), 1u);
  EXPECT_EQ(b.flavors[0].utilisation_ppm, 400'000);
  EXPECT_EQ(b.flavors[0].capacity_milli, 10'000);
  EXPECT_FALSE(b.flavors[0].exhausted_p50.has_value());
  EXPECT_FALSE(b.flavors[0].exhausted_p90.has_value());
  EXPECT_EQ(b.flavors[0].model, kRecentAverageModel);
  EXPECT_EQ(b.projection_models, (std::vector<std::pair<std::string, int64_t>>{{kRecentAverageModel, 2}}));
  // With nothing changed, the scenario is the baseline.
  EXPECT_EQ(c->scenario.bills[0].micro, b.bills[0].micro);
  EXPECT_EQ(c->scenario.total_micro, b.total_micro);
}

TEST(RunScenario, CapacityRemovedMidMonthCapsHeldTimeAndExhaustsTheFlavor) {
  auto c = RunScenario(State(), Scenario(kShrinkAndDouble), nullptr);
  ASSERT_THAT(c, IsOk());
  const ScenarioSide& s = c->scenario;
  // Until the 16th (360 hours) team-a holds 6, team-b 1 of 10 devices; then 3 devices are split 6:1
  // (2571 and 429 milli-devices, the remainder to the larger remainder); every hour at 3.
  ASSERT_EQ(s.bills.size(), 2u);
  EXPECT_EQ(s.bills[0].micro, int64_t{3000} * (360 * 6000 + 384 * 2571));
  EXPECT_EQ(s.bills[1].micro, int64_t{3000} * (360 * 1000 + 384 * 429));
  EXPECT_EQ(s.idle_micro, int64_t{3000} * (360 * 3000));
  EXPECT_EQ(s.total_micro, int64_t{3000} * (360 * 10000 + 384 * 3000));
  EXPECT_EQ(s.bills[0].micro + s.bills[1].micro + s.idle_micro, s.total_micro);
  EXPECT_EQ(s.flavors[0].utilisation_ppm, 772'727);  // 3,672,000 of 4,752,000 milli-device-hours
  EXPECT_EQ(s.flavors[0].capacity_milli, 3000);
  EXPECT_EQ(s.flavors[0].exhausted_p50, At(2027, 1, 16));
  EXPECT_EQ(s.flavors[0].exhausted_p90, At(2027, 1, 16));
  EXPECT_EQ(c->recommendations_at, At(2027, 1, 16));
  // The baseline is untouched by the scenario.
  EXPECT_EQ(c->baseline.total_micro, 14'880'000'000);
  EXPECT_FALSE(c->baseline.flavors[0].exhausted_p50.has_value());
}

int64_t Recommended(const ScenarioSide& side, const std::string& team) {
  for (const auto& r : side.recommendations) {
    if (r.team == team) return r.recommended_milli;
  }
  return -1;
}

TEST(RunScenario, RecommendsWithTheScaledDemandAndTheChangedCapacity) {
  auto c = RunScenario(State(), Scenario(kShrinkAndDouble), nullptr);
  ASSERT_THAT(c, IsOk());
  ASSERT_EQ(c->baseline.recommendations.size(), 2u);
  ASSERT_EQ(c->scenario.recommendations.size(), 2u);
  // The measured demand (3, doubled to 6; 1) plus the policy's default headroom, 20%.
  EXPECT_EQ(c->baseline.recommendations[0].demand_milli, 3600);
  EXPECT_EQ(c->scenario.recommendations[0].demand_milli, 7200);
  EXPECT_EQ(c->scenario.recommendations[1].demand_milli, 1200);
  // Three devices left: the recommendations share exactly them.
  EXPECT_EQ(Recommended(c->scenario, "team-a") + Recommended(c->scenario, "team-b"), 3000);
  EXPECT_GT(Recommended(c->scenario, "team-a"), Recommended(c->scenario, "team-b"));
  EXPECT_GE(Recommended(c->baseline, "team-a"), 3000);
}

TEST(RunScenario, WorksOnACopyOfTheState) {
  const PlanningState state = State();
  PlanningState copy = state;
  ASSERT_THAT(RunScenario(copy, Scenario(kShrinkAndDouble), nullptr), IsOk());
  EXPECT_EQ(copy.held.size(), state.held.size());
  EXPECT_EQ(copy.held[0].held_milli_seconds, state.held[0].held_milli_seconds);
}

TEST(RunScenario, UsesTheForecastersProjectionAndSaysSo) {
  class Rising final : public HeldForecaster {
   public:
    std::optional<HeldProjection> Project(const std::vector<int64_t>& history, int64_t horizon) const override {
      HeldProjection p{{}, {}, "rising"};
      for (int64_t h = 0; h < horizon; ++h) {
        p.p50_milli.push_back(history.back() + 10 * h);
        p.p90_milli.push_back(history.back() + 20 * h);
      }
      return p;
    }
  } rising;
  auto c = RunScenario(State(), Scenario("version: 1\n"), &rising);
  ASSERT_THAT(c, IsOk());
  const FlavorOutlook& f = c->baseline.flavors[0];
  EXPECT_EQ(f.model, "rising");
  // The total (4000) passes 10000 after 600 hours at p50 and 300 at p90, counted from 2026-12-15 12:00.
  EXPECT_EQ(f.exhausted_p50, At(2027, 1, 9));    // hour 601: 2027-01-09 13:00
  EXPECT_EQ(f.exhausted_p90, At(2026, 12, 28));  // hour 301: 2026-12-28 01:00
}

TEST(RunScenario, RefusesNamesThePolicyDoesNotKnow) {
  EXPECT_THAT(
      RunScenario(State(),
                  Scenario("version: 1\ncapacity:\n  - flavor: a100\n    add: 1\n    from: 2027-01-01T00:00:00Z\n"),
                  nullptr),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("scenario:3: capacity[0].flavor: unknown flavor \"a100\" (not in policy version 5)")));
  EXPECT_THAT(
      RunScenario(State(), Scenario("version: 1\ndemand:\n  - team: ghost\n    factor: 2\n"), nullptr),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("scenario:3: demand[0].team: unknown team \"ghost\"")));
  EXPECT_THAT(RunScenario(State(), Scenario("version: 1\npolicy:\n  version: 4\n"), nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("scenario:3: policy.version: no stored policy version 4")));
}

TEST(RunScenario, RunsAnotherStoredPolicyVersion) {
  PlanningState state = State();
  std::string v4 = kPolicy;
  v4.replace(v4.find("capacity: 10"), 12, "capacity: 20");
  state.other_policies[4] = v4;
  auto c = RunScenario(state, Scenario("version: 1\npolicy:\n  version: 4\n"), nullptr);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->scenario.policy_version, 4);
  EXPECT_EQ(c->scenario.flavors[0].capacity_milli, 20'000);
  EXPECT_EQ(c->scenario.total_micro, 2 * c->baseline.total_micro);
}

TEST(RunScenario, AppliesAPolicyPatch) {
  auto c = RunScenario(State(), Scenario(R"(version: 1
policy:
  patch:
    flavors:
      - name: h100
        model: H100
        capacity: 8
)"),
                       nullptr);
  ASSERT_THAT(c.status(), IsOk());
  EXPECT_EQ(c->scenario.policy_version, 0);
  EXPECT_EQ(c->scenario.flavors[0].capacity_milli, 8000);
  EXPECT_EQ(c->baseline.flavors[0].capacity_milli, 10'000);
}

TEST(RunScenario, ReportsAPatchedPolicysProblemsAtTheScenariosLines) {
  EXPECT_THAT(RunScenario(State(), Scenario(R"(version: 1
policy:
  patch:
    allocation:
      - team: team-a
        flavor: h100
        guarantee: -1
)"),
                          nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("scenario:7:20: policy.patch.allocation[0].guarantee: negative guarantee -1")));
  // The unchanged allocation rules no longer fit a patched flavor list: pointed at the patch.
  EXPECT_THAT(
      RunScenario(State(), Scenario(R"(version: 1
policy:
  patch:
    flavors:
      - name: a100
        model: A100
        capacity: 5
)"),
                  nullptr),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("scenario:4:5: policy.patch.allocation[0].flavor"), HasSubstr("after the patch"))));
}

}  // namespace
}  // namespace fleetcap::whatif

namespace fleetcap::whatif {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(RunScenario, TheDocumentedExampleRunsOnTheDemoPolicy) {
  PlanningState state;
  state.now = At(2026, 12, 15, 12);
  state.history_end = state.now;
  state.history_hours = 24;
  state.policy_version = 1;
  state.policy_yaml = ReadFile(fleetcap::testing::SourcePath("docs/examples/openb-policy.yaml"));
  ASSERT_FALSE(state.policy_yaml.empty());
  ParsedScenario parsed = ParseScenario(ReadFile(fleetcap::testing::SourcePath("docs/examples/whatif-scenario.yaml")));
  ASSERT_TRUE(parsed.ok()) << policy::FormatPolicyErrors("scenario", parsed.errors);
  auto c = RunScenario(state, parsed.document, nullptr);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->recommendations_at, At(2027, 2, 1));
}

}  // namespace
}  // namespace fleetcap::whatif
