#include "optimizer/allocation/measured_demand.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "policy/policy_parser.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::allocation {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// research has two leaves; h100 is the H100s of every cluster, t4-eu the
// T4s of eu-* clusters. nlp declares its demand on h100.
constexpr const char* kMeasuredPolicy = R"(version: 1
teams:
  - name: research
  - name: vision
    parent: research
  - name: nlp
    parent: research
flavors:
  - name: h100
    model: H100
    capacity: 64
  - name: t4-eu
    model: T4
    cluster: "eu-*"
    capacity: 100
allocation:
  - team: nlp
    flavor: h100
    guarantee: 8
    demand: 12.5
)";

policy::PolicyDocument Policy(const std::string& text = kMeasuredPolicy) {
  policy::ParsedPolicy parsed = policy::ParsePolicy(text);
  EXPECT_TRUE(parsed.ok()) << policy::FormatPolicyErrors("policy", parsed.errors);
  return parsed.document;
}

const absl::Time kEnd = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

HourlySeries Series(std::vector<int64_t> values) {
  HourlySeries s;
  s.hours = static_cast<int64_t>(values.size());
  for (size_t i = 0; i < values.size(); ++i) s.values[static_cast<int64_t>(i)] = values[i];
  return s;
}

MeasuredDemandOptions Options(int hours) {
  MeasuredDemandOptions o;
  o.lookback = absl::Hours(hours);
  o.trend_horizon = absl::Hours(hours);
  return o;
}

// `hours_ago` 1 = the last hour of the history.
HeldHour Held(const std::string& team, const std::string& cluster, const std::string& model, int hours_ago,
              int64_t milli_for_the_hour) {
  return {team, cluster, model, kEnd - absl::Hours(hours_ago), milli_for_the_hour * 3600};
}

TEST(MeasuredDemand, PercentileIsTheNearestRankWithHoursWithoutHoldingAsZero) {
  EXPECT_EQ(PercentileNearestRank(Series({5, 1, 4, 2, 3}), 100), 5);
  EXPECT_EQ(PercentileNearestRank(Series({5, 1, 4, 2, 3}), 50), 3);  // rank ceil(2.5) = 3
  EXPECT_EQ(PercentileNearestRank(Series({5, 1, 4, 2, 3}), 1), 1);   // rank 1
  EXPECT_EQ(PercentileNearestRank(Series({5, 1, 4, 2, 3}), 80), 4);  // rank 4 exactly
  HourlySeries sparse;                                               // 20 hours, one busy
  sparse.hours = 20;
  sparse.values[7] = 9000;
  EXPECT_EQ(PercentileNearestRank(sparse, 95), 0);  // rank 19: still a zero
  EXPECT_EQ(PercentileNearestRank(sparse, 96), 9000);
  EXPECT_EQ(PercentileNearestRank(HourlySeries{}, 95), 0);
}

TEST(MeasuredDemand, TrendIsTheLeastSquaresSlopeProjectedAndNeverNegative) {
  EXPECT_EQ(TrendOver(Series({1000, 2000, 3000, 4000}), 10), 10000);  // 1000 an hour
  EXPECT_EQ(TrendOver(Series({4000, 3000, 2000, 1000}), 10), 0);      // falling: no trend
  EXPECT_EQ(TrendOver(Series({2000, 2000, 2000}), 24), 0);
  // 0, 0, 1000, 1000: slope = (4*5000 - 6*2000) / (4*14 - 36) = 400 an hour.
  EXPECT_EQ(TrendOver(Series({0, 0, 1000, 1000}), 3), 1200);
  EXPECT_EQ(TrendOver(Series({7000}), 24), 0);  // one hour has no slope
  EXPECT_EQ(TrendOver(Series({1000, 2000}), 0), 0);
}

TEST(MeasuredDemand, PendingIsWeightedByTheWaitUpToTheFullWeight) {
  EXPECT_EQ(PendingWeighted(2000, absl::Minutes(30), absl::Hours(1)), 1000);
  EXPECT_EQ(PendingWeighted(2000, absl::Hours(5), absl::Hours(1)), 2000);
  EXPECT_EQ(PendingWeighted(1000, absl::Seconds(1), absl::Hours(1)), 0);  // 0.27 milli, rounded down
  EXPECT_EQ(PendingWeighted(1000, -absl::Minutes(1), absl::Hours(1)), 0);
}

TEST(MeasuredDemand, HeldTrendAndPendingAddUpWithTheNumbersInTheExplanation) {
  // Four hours: vision held 1, 2, 3, 4 H100s in cluster us-1; two pods wait.
  std::vector<HeldHour> held = {Held("vision", "us-1", "H100", 4, 1000), Held("vision", "us-1", "H100", 3, 2000),
                                Held("vision", "us-1", "H100", 2, 3000), Held("vision", "us-1", "H100", 1, 4000)};
  std::vector<PendingPod> pending = {{"vision", "us-1", "H100", 1000, absl::Minutes(40)},
                                     {"vision", "us-2", "H100", 2000, absl::Minutes(15)}};
  MeasuredDemandOptions options = Options(4);
  options.percentile = 50;
  options.trend_horizon = absl::Hours(2);
  const MeasuredDemandSet set = MeasureDemand(Policy(), kEnd, held, pending, options);
  ASSERT_EQ(set.demand.size(), 2u);  // vision on h100, and nlp's declared demand
  const MeasuredDemand& v = set.demand[1];
  EXPECT_EQ(v.team, "vision");
  EXPECT_EQ(v.flavor, "h100");
  EXPECT_EQ(v.percentile_milli, 2000);  // rank 2 of 4
  EXPECT_EQ(v.trend_milli, 2000);       // 1000 an hour for 2 hours
  EXPECT_EQ(v.pending_milli, 666 + 500);
  EXPECT_EQ(v.pending_pods, 2);
  EXPECT_EQ(v.measured_milli, 2000 + 2000 + 1166);
  // The policy's default headroom, 20%, rounded up: 1033.2 -> 1034.
  EXPECT_EQ(v.headroom_milli, 1034);
  EXPECT_EQ(v.demand_milli, 5166 + 1034);
  EXPECT_EQ(v.explanation,
            "p50 held 2.000 + trend 2.000 + pending 1.166 (2 pods, longest 40m) = 5.166 devices; + 20% headroom 1.034 "
            "= 6.200 devices");
  EXPECT_EQ(set.unplaced.held_hours, 0);
  EXPECT_EQ(set.unplaced.pending_pods, 0);
}

TEST(MeasuredDemand, ThePolicysHeadroomIsAddedToTheMeasuredDemandPendingIncluded) {
  std::vector<HeldHour> held = {Held("vision", "us-1", "H100", 1, 3000), Held("vision", "us-1", "H100", 2, 3000)};
  std::vector<PendingPod> pending = {{"vision", "us-1", "H100", 2000, absl::Hours(2)}};
  for (const auto& [percent, headroom] : std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {50, 2500}, {1000, 50000}}) {
    policy::PolicyDocument p = Policy();
    p.demand_headroom_percent = percent;
    const MeasuredDemandSet set = MeasureDemand(p, kEnd, held, pending, Options(2));
    ASSERT_EQ(set.demand.size(), 2u);
    const MeasuredDemand& v = set.demand[1];
    EXPECT_EQ(v.measured_milli, 3000 + 2000) << percent;  // p95 held + pending
    EXPECT_EQ(v.headroom_milli, headroom) << percent;
    EXPECT_EQ(v.demand_milli, 5000 + headroom) << percent;
    EXPECT_THAT(v.explanation, HasSubstr(absl::StrCat("; + ", percent, "% headroom"))) << percent;
  }
  // A declared demand is the policy's own figure: no headroom on it.
  EXPECT_EQ(MeasureDemand(Policy(), kEnd, held, pending, Options(2)).demand[0].demand_milli, 12500);
}

TEST(MeasuredDemand, HeadroomIsRoundedUpAndBounded) {
  EXPECT_EQ(HeadroomOf(0, 20), 0);
  EXPECT_EQ(HeadroomOf(1, 20), 1);
  EXPECT_EQ(HeadroomOf(5000, 20), 1000);
  EXPECT_EQ(HeadroomOf(5001, 20), 1001);
  EXPECT_EQ(HeadroomOf(5000, 0), 0);
  EXPECT_EQ(HeadroomOf(1'000'000'000'000, 1000), 1'000'000'000'000);
}

TEST(MeasuredDemand, ADeclaredDemandOverridesTheMeasuredAndSaysWhatWasMeasured) {
  std::vector<HeldHour> held = {Held("nlp", "us-1", "H100", 1, 3000), Held("nlp", "us-1", "H100", 2, 3000)};
  const MeasuredDemandSet set = MeasureDemand(Policy(), kEnd, held, {}, Options(2));
  ASSERT_EQ(set.demand.size(), 1u);
  EXPECT_EQ(set.demand[0].team, "nlp");
  EXPECT_EQ(set.demand[0].declared_milli, 12500);
  EXPECT_EQ(set.demand[0].demand_milli, 12500);
  EXPECT_EQ(set.demand[0].explanation,
            "declared 12.500 devices in the policy (measured p95 held 3.000 + trend 0.000 + pending 0.000 (0 pods) = "
            "3.000 devices)");
}

TEST(MeasuredDemand, EmptyHistoryGivesOnlyDeclaredDemand) {
  const MeasuredDemandSet set = MeasureDemand(Policy(), kEnd, {}, {}, Options(168));
  ASSERT_EQ(set.demand.size(), 1u);
  EXPECT_EQ(set.demand[0].team, "nlp");
  EXPECT_EQ(set.demand[0].demand_milli, 12500);
  MeasuredDemandSet none =
      MeasureDemand(Policy("version: 1\nteams:\n  - name: a\n"), kEnd, {}, {}, MeasuredDemandOptions{});
  EXPECT_TRUE(none.demand.empty());
}

TEST(MeasuredDemand, OnlyTheLookbackCountsAndPartHoursAreMeans) {
  // Three hours of lookback; the hour before it is ignored; a half-held hour is half a device.
  std::vector<HeldHour> held = {Held("vision", "eu-1", "T4", 4, 90'000), Held("vision", "eu-1", "T4", 1, 0)};
  held.push_back({"vision", "eu-1", "T4", kEnd - absl::Hours(2), 500 * 3600 + 1799});  // 500.4997 -> 500
  held.push_back({"vision", "eu-1", "T4", kEnd - absl::Hours(3), 600 * 3600 + 1800});  // 600.5 -> 601
  MeasuredDemandOptions options = Options(3);
  options.percentile = 100;
  options.trend_horizon = absl::ZeroDuration();
  const MeasuredDemandSet set = MeasureDemand(Policy(), kEnd, held, {}, options);
  ASSERT_EQ(set.demand.size(), 2u);
  EXPECT_EQ(set.demand[1].flavor, "t4-eu");
  EXPECT_EQ(set.demand[1].percentile_milli, 601);
}

TEST(MeasuredDemand, DemandOfNoLeafOrNoFlavorIsCountedNotPlaced) {
  std::vector<HeldHour> held = {Held("research", "us-1", "H100", 1, 1000),          // not a leaf
                                Held("unassigned", "us-1", "H100", 1, 1000),        // not a team of the policy
                                Held("vision", "us-1", "T4", 1, 1000),              // T4 outside eu-*
                                Held("vision", "eu-1", "A100", 1, 1000)};           // no flavor of that model
  std::vector<PendingPod> pending = {{"vision", "us-1", "", 1000, absl::Hours(1)},  // any model: only h100 fits
                                     {"vision", "eu-1", "", 1000, absl::Hours(1)},  // any model: two fit
                                     {"nobody", "us-1", "H100", 1000, absl::Hours(1)}};
  const MeasuredDemandSet set = MeasureDemand(Policy(), kEnd, held, pending, Options(2));
  EXPECT_EQ(set.unplaced.held_hours, 4);
  EXPECT_EQ(set.unplaced.pending_pods, 2);
  ASSERT_EQ(set.demand.size(), 2u);
  EXPECT_EQ(set.demand[1].team, "vision");
  EXPECT_EQ(set.demand[1].flavor, "h100");
  EXPECT_EQ(set.demand[1].pending_milli, 1000);
}

TEST(MeasuredDemand, FlavorOfTakesTheFirstMatchingFlavorInPolicyOrder) {
  const policy::PolicyDocument p = Policy(R"(version: 1
flavors:
  - name: h100-eu
    model: H100
    cluster: "eu-*"
    capacity: 8
  - name: h100
    model: H100
    capacity: 8
)");
  EXPECT_EQ(FlavorOf(p, "eu-1", "H100"), "h100-eu");
  EXPECT_EQ(FlavorOf(p, "us-1", "H100"), "h100");
  EXPECT_EQ(FlavorOf(p, "us-1", ""), "h100");
  EXPECT_EQ(FlavorOf(p, "eu-1", ""), std::nullopt);
  EXPECT_EQ(FlavorOf(p, "us-1", "T4"), std::nullopt);
}

TEST(MeasuredDemand, OptionsOutsideTheirRangeAreRefusedByName) {
  EXPECT_THAT(ValidateMeasuredDemandOptions(MeasuredDemandOptions{}), IsOk());
  MeasuredDemandOptions o;
  o.lookback = absl::Minutes(90);
  EXPECT_THAT(ValidateMeasuredDemandOptions(o), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("lookback")));
  o = {};
  o.percentile = 0;
  EXPECT_THAT(ValidateMeasuredDemandOptions(o), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("percentile")));
  o = {};
  o.trend_horizon = -absl::Hours(1);
  EXPECT_THAT(ValidateMeasuredDemandOptions(o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("trend horizon")));
  o = {};
  o.pending_full_weight = absl::ZeroDuration();
  EXPECT_THAT(ValidateMeasuredDemandOptions(o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pending full weight")));
}

TEST(MeasuredDemand, HugeHistorySaturatesAtTheEngineBound) {
  std::vector<PendingPod> pending(
      3, PendingPod{"vision", "us-1", "H100", std::numeric_limits<int64_t>::max() / 2, absl::Hours(2)});
  const MeasuredDemandSet set = MeasureDemand(Policy(), kEnd, {}, pending, Options(1));
  ASSERT_EQ(set.demand.size(), 2u);
  EXPECT_EQ(set.demand[1].demand_milli, 1'000'000'000'000);
}

}  // namespace
}  // namespace fleetcap::allocation
