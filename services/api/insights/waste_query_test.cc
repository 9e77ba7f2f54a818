#include "services/api/insights/waste_query.h"

#include <gtest/gtest.h>

#include "proto_time.h"
#include "store/memory_control_repositories.h"
#include "store/memory_insight_waste_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;

const absl::Time kWasteQueryT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

constexpr const char* kWasteQueryPolicy = R"(version: 1
currency: EUR
teams: [{name: vision}, {name: ads}]
insights: {idle_below: 2.5%, idle_for: 90m}
)";

store::IdlePieceRecord APiece(const std::string& pod, int hour, const std::string& team) {
  const absl::Time h = kWasteQueryT0 + absl::Hours(hour);
  return {"c1",          h,      pod,  h,         h + absl::Hours(1), "ns-" + team, team,
          "Job/" + team, "A100", 1000, 3'600'000, 2'000'000,          36'000,       0};
}

v1::GetWasteRequest AWasteRequest(int hours) {
  v1::GetWasteRequest r;
  *r.mutable_start() = ToProtoTimestamp(kWasteQueryT0);
  *r.mutable_end() = ToProtoTimestamp(kWasteQueryT0 + absl::Hours(hours));
  return r;
}

class WasteQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::PolicyVersionRecord record;
    record.document = kWasteQueryPolicy;
    record.applied_at = kWasteQueryT0;
    ASSERT_THAT(policies_.Apply(record, std::nullopt, store::AuditEntry{}), IsOk());
    // p1 idle two hours running (one run), p2 one hour.
    ASSERT_THAT(waste_.ReplaceHours("c1", kWasteQueryT0, kWasteQueryT0 + absl::Hours(2),
                                    {APiece("p1", 0, "vision"), APiece("p1", 1, "vision"), APiece("p2", 1, "ads")}, {}),
                IsOk());
  }

  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  store::MemoryInsightWasteRepository waste_;
};

TEST_F(WasteQueryTest, PiecesJoinIntoRunsAndTheThresholdsAreThePolicys) {
  WasteQuery query(&waste_, &cache_);
  auto report = query.Run(Scope{}, AWasteRequest(2));
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->currency(), "EUR");
  EXPECT_DOUBLE_EQ(report->idle_below(), 0.025);
  EXPECT_EQ(report->idle_for_seconds(), 90 * 60);
  ASSERT_EQ(report->workloads_size(), 2);
  EXPECT_EQ(report->workloads(0).team(), "vision");
  EXPECT_EQ(report->workloads(0).run_count(), 1);
  ASSERT_EQ(report->workloads(0).runs_size(), 1);
  EXPECT_EQ(FromProtoTimestamp(report->workloads(0).runs(0).end()), kWasteQueryT0 + absl::Hours(2));
  EXPECT_EQ(report->workloads(0).runs(0).wasted_cost_micro(), 4'000'000);
  EXPECT_EQ(report->wasted_cost_micro(), 6'000'000);
}

TEST_F(WasteQueryTest, AnAnswerOfTooManyPiecesIsRefused) {
  WasteQuery query(&waste_, &cache_, /*max_pieces=*/2);
  EXPECT_THAT(query.Run(Scope{}, AWasteRequest(2)), StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_THAT(query.Run(Scope{}, AWasteRequest(1)), IsOk());
}

}  // namespace
}  // namespace fleetcap::api
