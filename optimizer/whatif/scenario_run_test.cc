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

// The forecast pass's stored run over State(): from the history's end, team-a's
// held p50 follows the day (2 devices at night, 4 by day) and team-b holds
// 1.5 devices; neither is the recent average of the history (3 and 1).
StoredForecast StoredRunOver(const PlanningState& s) {
  StoredForecast f;
  f.run_id = 7;
  f.forecast_start = s.history_end;
  StoredHeldForecast a{{}, {}, "holt_winters"}, b{{}, {}, "seasonal_naive"}, total{{}, {}, "holt_winters"};
  for (int64_t h = 0; h < 2160; ++h) {
    const int64_t hour_of_day = (12 + h) % 24;
    a.p50_milli.push_back(hour_of_day < 8 ? 2000 : 4000);
    a.p90_milli.push_back(a.p50_milli.back() + 500);
    b.p50_milli.push_back(1500);
    b.p90_milli.push_back(1700);
    total.p50_milli.push_back(a.p50_milli.back() + b.p50_milli.back());
    total.p90_milli.push_back(a.p90_milli.back() + b.p90_milli.back());
  }
  f.held[{"team-a", "h100"}] = a;
  f.held[{"team-b", "h100"}] = b;
  f.held[{"", "h100"}] = total;
  return f;
}

// The stored series' p50 summed over January 2027 (milli-device-hours).
int64_t StoredJanuary(const StoredForecast& f, const std::string& team) {
  const int64_t offset = (At(2027, 1, 1) - f.forecast_start) / absl::Hours(1);
  const std::vector<int64_t>& p50 = f.held.at({team, "h100"}).p50_milli;
  int64_t sum = 0;
  for (int64_t h = offset; h < offset + 744; ++h) sum += p50[static_cast<size_t>(h)];
  return sum;
}

TEST(RunScenario, AnEmptyScenarioReproducesTheStoredForecastsDeviceHoursAndBills) {
  PlanningState s = State();
  s.forecast = StoredRunOver(s);
  auto c = RunScenario(s, Scenario("version: 1\n"), nullptr);
  ASSERT_THAT(c, IsOk());
  const int64_t team_a = StoredJanuary(*s.forecast, "team-a");
  const int64_t team_b = StoredJanuary(*s.forecast, "team-b");
  EXPECT_EQ(team_a, (8 * 2000 + 16 * 4000) * 31);
  EXPECT_EQ(team_b, 1500 * 744);
  for (const ScenarioSide* side : {&c->baseline, &c->scenario}) {
    ASSERT_EQ(side->bills.size(), 2u);
    EXPECT_EQ(side->bills[0].team, "team-a");
    EXPECT_EQ(side->bills[0].held_milli_hours, team_a);
    EXPECT_TRUE(side->bills[0].unknown_flavors.empty());
    EXPECT_EQ(side->bills[1].team, "team-b");
    EXPECT_EQ(side->bills[1].held_milli_hours, team_b);
    // What those hours cost at today's price, 2 a device-hour.
    EXPECT_EQ(side->bills[0].micro, team_a * 2'000'000 / 1000);
    EXPECT_EQ(side->bills[1].micro, team_b * 2'000'000 / 1000);
    EXPECT_EQ(side->total_micro, int64_t{10} * 744 * 2'000'000);
    ASSERT_EQ(side->flavors.size(), 1u);
    EXPECT_EQ(side->flavors[0].held_milli_hours, team_a + team_b);
    EXPECT_FALSE(side->flavors[0].held_unknown);
    EXPECT_EQ(side->flavors[0].model, "holt_winters");
    EXPECT_EQ(side->forecast_run_id, 7);
    EXPECT_EQ(side->projection_models,
              (std::vector<std::pair<std::string, int64_t>>{{"holt_winters", 1}, {"seasonal_naive", 1}}));
  }
}

TEST(RunScenario, ScenarioChangesApplyToTheStoredForecast) {
  PlanningState s = State();
  s.forecast = StoredRunOver(s);
  auto c = RunScenario(s, Scenario("version: 1\ndemand:\n  - team: team-b\n    factor: 2\n"), nullptr);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->scenario.bills[1].held_milli_hours, 2 * StoredJanuary(*s.forecast, "team-b"));
  EXPECT_EQ(c->scenario.bills[0].held_milli_hours, c->baseline.bills[0].held_milli_hours);
}

TEST(RunScenario, ASeriesNoStoredForecastCoversIsUnknownNotZero) {
  PlanningState s = State();
  s.forecast = StoredRunOver(s);
  s.forecast->held.erase({"team-b", "h100"});
  auto c = RunScenario(s, Scenario("version: 1\n"), nullptr);
  ASSERT_THAT(c, IsOk());
  const ScenarioSide& b = c->baseline;
  ASSERT_EQ(b.bills.size(), 2u);
  EXPECT_EQ(b.bills[0].held_milli_hours, StoredJanuary(*s.forecast, "team-a"));
  EXPECT_TRUE(b.bills[0].unknown_flavors.empty());
  EXPECT_EQ(b.bills[1].team, "team-b");
  EXPECT_EQ(b.bills[1].unknown_flavors, std::vector<std::string>{"h100"});
  ASSERT_EQ(b.flavors.size(), 1u);
  EXPECT_TRUE(b.flavors[0].held_unknown);

  // A stored run that ends before the month covers none of it.
  PlanningState short_run = State();
  short_run.forecast = StoredRunOver(short_run);
  for (auto& [key, series] : short_run.forecast->held) {
    series.p50_milli.resize(48);
    series.p90_milli.resize(48);
  }
  auto d = RunScenario(short_run, Scenario("version: 1\n"), nullptr);
  ASSERT_THAT(d, IsOk());
  for (const TeamBill& bill : d->baseline.bills) EXPECT_EQ(bill.unknown_flavors, std::vector<std::string>{"h100"});
  EXPECT_TRUE(d->baseline.flavors[0].held_unknown);
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
  EXPECT_EQ(c->recommendations_at, At(2027, 1, 16));
  // Every change falls inside the projected month, so each moves it: G2 costs
  // less from its first hour and has fewer devices from the 16th.
  EXPECT_EQ(c->month_start, At(2027, 1, 1));
  EXPECT_LT(c->scenario.total_micro, c->baseline.total_micro);
  for (size_t i = 0; i < c->baseline.flavors.size(); ++i) {
    const FlavorOutlook& before = c->baseline.flavors[i];
    const FlavorOutlook& after = c->scenario.flavors[i];
    if (before.flavor == "openb-g2") {
      EXPECT_LT(after.capacity_milli_hours, before.capacity_milli_hours);
    }
    if (before.flavor == "openb-v100m16") {
      EXPECT_GT(after.capacity_milli_hours, before.capacity_milli_hours);
    }
  }
}

}  // namespace
}  // namespace fleetcap::whatif
