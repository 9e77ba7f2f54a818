#include "services/ctl/explain_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"

namespace fleetcap::ctl {
namespace {

using ::testing::HasSubstr;

// speech's line of docs/attribution.md's worked example: half of g1 for the
// hour at 7.00 (3.50 direct) and a third of the cluster's 3.50 idle.
v1::ChargebackExplanation WorkedExample() {
  v1::ChargebackExplanation e;
  e.mutable_hour()->set_seconds(1767607200);  // 2026-01-05T10:00:00Z
  e.set_team("speech");
  e.set_currency("USD");
  e.set_matches_stored(true);
  v1::LineExplanation* l = e.add_lines();
  v1::ChargebackLine* line = l->mutable_line();
  line->set_cluster("c1");
  line->set_model("A100");
  line->set_team("speech");
  line->set_namespace_("asr");
  line->set_workload("Job/asr");
  line->set_line_kind("workload");
  line->set_held_milli_seconds(1800000);
  line->set_direct_cost_micro(3500000);
  line->set_idle_cost_micro(1166667);
  line->set_total_cost_micro(4666667);
  l->set_matches_stored(true);
  l->set_direct_weight("12600000000000");
  l->set_idle_weight("4200000000000");
  l->set_shared_weight("0");
  v1::HoldExplanation* h = l->add_holds();
  h->set_pod_uid("p2");
  h->set_device_id("g1");
  h->set_node("n1");
  h->set_milli(500);
  h->set_held_seconds(3600);
  h->set_held_milli_seconds(1800000);
  v1::PricedSeconds* p = h->add_prices();
  p->set_micro_per_device_hour(7000000);
  p->set_priced(true);
  p->set_seconds(3600);
  h->set_weight("12600000000000");
  h->set_direct_cost_micro(3500000);
  v1::IdleExplanation* i = l->add_idle();
  i->set_scope("cluster");
  i->set_rule("share");
  i->set_scope_idle_weight("12600000000000");
  i->set_line_weight("12600000000000");
  i->set_scope_weight("37800000000000");
  i->set_received_weight("4200000000000");
  i->set_idle_cost_micro(1166667);
  return e;
}

TEST(ExplanationTable, EachHoldAndPartThenTheTotalTheyAddUpTo) {
  EXPECT_EQ(
      ExplanationTable(WorkedExample()),
      "chargeback of speech at 2026-01-05T10:00:00Z in USD\n"
      "\n"
      "c1 A100 asr Job/asr workload\n"
      "PART                                        WHAT  SECONDS  TELEMETRY_S  MILLI   PRICE    SHARE    AMOUNT\n"
      "hold   pod p2 on g1 (n1)                             3600            0    500  7.00/h  100.00%      3.50\n"
      "idle   idle of c1 A100 3.50 (share)                                                     33.33%  1.166667\n"
      "TOTAL  direct 3.50 + idle 1.166667 + shared 0.00                                                4.666667\n");
}

TEST(ExplanationTable, APriceChangeShowsEachPriceWithItsSecondsAndADifferingStoredLineIsSaid) {
  v1::ChargebackExplanation e = WorkedExample();
  v1::HoldExplanation* h = e.mutable_lines(0)->mutable_holds(0);
  h->mutable_prices(0)->set_seconds(1200);
  v1::PricedSeconds* later = h->add_prices();
  later->set_micro_per_device_hour(10000000);
  later->set_priced(true);
  later->set_seconds(2400);
  e.set_matches_stored(false);
  e.set_note("recompute pending: facts changed");
  e.mutable_lines(0)->set_matches_stored(false);
  e.mutable_lines(0)->mutable_stored()->set_total_cost_micro(4000000);
  const std::string table = ExplanationTable(e);
  EXPECT_THAT(table, HasSubstr("7.00/h x 1200s + 10.00/h x 2400s"));
  EXPECT_THAT(table, HasSubstr("stored line differs: total 4.00"));
  EXPECT_THAT(table, HasSubstr("the stored lines differ: recompute pending: facts changed"));
}

TEST(ExplanationTable, ATeamWithNoLineSaysSo) {
  v1::ChargebackExplanation e = WorkedExample();
  e.clear_lines();
  EXPECT_THAT(ExplanationTable(e), HasSubstr("no line for this team in this hour"));
}

TEST(ExplanationJson, IsTheProto3JsonOfTheExplanation) {
  const v1::ChargebackExplanation e = WorkedExample();
  v1::ChargebackExplanation back;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(ExplanationJson(e), &back).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(back, e));
  EXPECT_THAT(ExplanationJson(e), HasSubstr("\"directCostMicro\": \"3500000\""));
}

TEST(WeightAsMoney, ExactWhenWholeMicroUnitsElseRoundedAndMarked) {
  EXPECT_EQ(WeightAsMoney("12600000000000"), "3.50");
  EXPECT_EQ(WeightAsMoney("4200000000000"), "~1.166667");  // 1166666.67 micro-units
  EXPECT_EQ(WeightAsMoney("3600000"), "0.000001");
  EXPECT_EQ(WeightAsMoney("0"), "0.00");
}

TEST(WeightShare, HundredthsOfAPercentAndADashForNothing) {
  EXPECT_EQ(WeightShare("1", "3"), "33.33%");
  EXPECT_EQ(WeightShare("2", "3"), "66.67%");
  EXPECT_EQ(WeightShare("5", "5"), "100.00%");
  EXPECT_EQ(WeightShare("5", "0"), "-");
}

}  // namespace
}  // namespace fleetcap::ctl
