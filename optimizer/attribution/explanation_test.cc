// Explain on the worked example of docs/attribution.md, figure by figure.

#include <gtest/gtest.h>

#include "optimizer/attribution/attribution_engine.h"

namespace fleetcap::attribution {
namespace {

const absl::Time kExplainedHour = absl::FromUnixSeconds(1767607200);  // 2026-01-05T10:00:00Z

class TeamByNamespace : public TeamSchedule {
 public:
  std::vector<TeamSpan> TeamsDuring(const policy::PodEvidence& pod, absl::Time from, absl::Time to) const override {
    return {{from, to, pod.namespace_name == "cv" ? "vision" : "speech"}};
  }
};

// Two A100s at 7.00 for the hour; vision holds g0, speech half of g1 for
// the first 40 minutes and the price of g1's cluster changes at 10:20.
AttributionInput TwoGpus() {
  AttributionInput in;
  in.start = kExplainedHour;
  in.end = kExplainedHour + absl::Hours(1);
  in.devices.push_back({"c1", "n1", "g0", "A100", kExplainedHour - absl::Hours(1)});
  in.devices.push_back({"c1", "n2", "g1", "A100", kExplainedHour - absl::Hours(1)});
  policy::Price price;
  price.model = "A100";
  price.from = kExplainedHour - absl::Hours(1);
  price.micro_per_device_hour = 7000000;
  in.prices.push_back(price);
  in.holds.push_back({"c1", "p1", "cv", "", "Job/a", "g0", 1000, kExplainedHour, kExplainedHour + absl::Hours(1)});
  in.holds.push_back({"c1", "p2", "asr", "", "Job/asr", "g1", 500, kExplainedHour, kExplainedHour + absl::Hours(1)});
  return in;
}

TEST(Explain, TheWorkedExampleHoldByHoldAndTheIdleItReceived) {
  absl::StatusOr<HourExplanation> e = Explain(TwoGpus(), TeamByNamespace(), {kExplainedHour, "speech", "", ""});
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->lines.size(), 1u);
  const LineExplanation& l = e->lines[0];
  EXPECT_EQ(l.line.total_cost_micro, 4666667);
  ASSERT_EQ(l.holds.size(), 1u);
  const HoldExplanation& h = l.holds[0];
  EXPECT_EQ(h.pod_uid, "p2");
  EXPECT_EQ(h.device_id, "g1");
  EXPECT_EQ(h.node, "n2");
  EXPECT_EQ(h.milli, 500);
  EXPECT_EQ(h.held_seconds, 3600);
  ASSERT_EQ(h.prices.size(), 1u);
  EXPECT_EQ(h.prices[0].micro_per_device_hour, 7000000);
  EXPECT_EQ(h.prices[0].seconds, 3600);
  EXPECT_TRUE(h.weight == Int128{3500000} * kWeightPerMicroUnit);
  EXPECT_EQ(h.direct_cost_micro, 3500000);
  // Half of g1 idle (3.50), shared 7 : 3.5 by charge: speech gets a third.
  ASSERT_EQ(l.idle.size(), 1u);
  const IdleExplanation& idle = l.idle[0];
  EXPECT_EQ(idle.scope, "cluster");
  EXPECT_EQ(idle.rule, "share");
  EXPECT_TRUE(idle.scope_idle == Int128{3500000} * kWeightPerMicroUnit);
  EXPECT_TRUE(idle.line_weight == Int128{3500000} * kWeightPerMicroUnit);
  EXPECT_TRUE(idle.scope_weight == Int128{10500000} * kWeightPerMicroUnit);
  EXPECT_TRUE(idle.received * 3 == idle.scope_idle);
  EXPECT_EQ(idle.idle_cost_micro, 1166667);
  EXPECT_FALSE(l.shared.has_value());
  EXPECT_EQ(l.cell_cost_micro, 14000000);
}

TEST(Explain, APriceChangeMidHourShowsEachPriceWithItsSeconds) {
  AttributionInput in = TwoGpus();
  in.prices[0].to = kExplainedHour + absl::Minutes(20);
  policy::Price later = in.prices[0];
  later.from = kExplainedHour + absl::Minutes(20);
  later.to.reset();
  later.micro_per_device_hour = 10000000;
  in.prices.push_back(later);
  in.holds[1].to = kExplainedHour + absl::Minutes(40);
  absl::StatusOr<HourExplanation> e = Explain(in, TeamByNamespace(), {kExplainedHour, "speech", "A100", "c1"});
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->lines.size(), 1u);
  const HoldExplanation& h = e->lines[0].holds.at(0);
  EXPECT_EQ(h.held_seconds, 2400);
  ASSERT_EQ(h.prices.size(), 2u);
  EXPECT_EQ(h.prices[0].micro_per_device_hour, 7000000);
  EXPECT_EQ(h.prices[0].seconds, 1200);
  EXPECT_EQ(h.prices[1].micro_per_device_hour, 10000000);
  EXPECT_EQ(h.prices[1].seconds, 1200);
  // 0.5 x (7.00 x 1/3 h + 10.00 x 1/3 h) = 2.833333..
  EXPECT_EQ(h.direct_cost_micro, e->lines[0].line.direct_cost_micro);
  EXPECT_EQ(h.direct_cost_micro, 2833333);
}

TEST(Explain, KeptIdleIsExplainedOnTheIdleLineWithWhyItWasKept) {
  AttributionInput in = TwoGpus();
  in.options.idle = "keep";
  absl::StatusOr<HourExplanation> e = Explain(in, TeamByNamespace(), {kExplainedHour, "idle", "", ""});
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->lines.size(), 1u);
  EXPECT_EQ(e->lines[0].line.idle_cost_micro, 3500000);
  ASSERT_EQ(e->lines[0].idle.size(), 1u);
  EXPECT_EQ(e->lines[0].idle[0].note, "kept by the rule");
  EXPECT_EQ(e->lines[0].idle[0].idle_cost_micro, 3500000);
}

TEST(Explain, ATeamWithNoLineThatHourHasNoExplanationAndAHourNotWholeIsAnError) {
  absl::StatusOr<HourExplanation> e = Explain(TwoGpus(), TeamByNamespace(), {kExplainedHour, "nlp", "", ""});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->lines.empty());
  e = Explain(TwoGpus(), TeamByNamespace(), {kExplainedHour + absl::Minutes(5), "speech", "", ""});
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::attribution
