#include "services/api/insights/rightsizing_query.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "services/api/test_scopes.h"
#include "store/memory_control_repositories.h"
#include "store/memory_rightsizing_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const absl::Time kEnd = absl::FromUnixSeconds(1'773'532'800);  // 2026-03-15T00:00:00Z

using test_scopes::kTwoOrgPolicy;

store::RightsizingRecord Record(const std::string& team, const std::string& workload, const std::string& kind,
                                int64_t savings) {
  store::RightsizingRecord r;
  r.namespace_name = team + "-ns";
  r.workload = workload;
  r.model = "A100-SXM4-80GB";
  r.kind = kind;
  r.team = team;
  r.current = "8 x A100-SXM4-80GB";
  r.proposed = "6 x A100-SXM4-80GB";
  r.current_milli = 8000;
  r.proposed_milli = 6000;
  r.savings_micro_per_month = savings;
  r.evidence = "p95 5.2 of 8";
  r.observed_minutes = 20160;
  r.confidence = "high";
  r.p95_active_devices = 5.2;
  return r;
}

using test_scopes::TeamScope;

std::vector<std::string> Rows(const v1::RightsizingReport& report) {
  std::vector<std::string> out;
  for (const auto& r : report.recommendations()) {
    out.push_back(
        absl::StrCat(r.cluster(), " ", r.team(), " ", r.workload(), " ", r.kind(), " ", r.savings_micro_per_month()));
  }
  return out;
}

class RightsizingQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::PolicyVersionRecord record;
    record.document = kTwoOrgPolicy;
    record.applied_at = kEnd - absl::Hours(24 * 30);
    ASSERT_THAT(policies_.Apply(record, std::nullopt, store::AuditEntry{}), IsOk());
    ASSERT_THAT(stored_.Replace(
                    {"c1",
                     kEnd - absl::Hours(24 * 14),
                     kEnd,
                     kEnd + absl::Minutes(5),
                     "EUR",
                     {Record("vision", "Job/a", "fewer_devices", 300), Record("vision", "Job/a", "smaller_slice", 500),
                      Record("ads", "Job/x", "fewer_devices", 9000)}}),
                IsOk());
    ASSERT_THAT(stored_.Replace({"c2",
                                 kEnd - absl::Hours(24 * 13),
                                 kEnd + absl::Hours(24),
                                 kEnd + absl::Hours(25),
                                 "EUR",
                                 {Record("vision-detect", "Job/d", "cheaper_flavor", 700)}}),
                IsOk());
  }

  v1::RightsizingReport Run(const Scope& scope, const std::string& team = "", int32_t limit = 0) {
    v1::GetRightsizingRequest request;
    request.set_team(team);
    request.set_limit(limit);
    auto report = query_.Run(scope, request);
    EXPECT_THAT(report, IsOk());
    return report.ok() ? *report : v1::RightsizingReport{};
  }

  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  store::MemoryRightsizingRepository stored_;
  RightsizingQuery query_{&stored_, &cache_};
};

TEST_F(RightsizingQueryTest, EveryClustersRecommendationsTheLargestSavingFirstWithTheirTotals) {
  const v1::RightsizingReport report = Run(Scope{});
  EXPECT_THAT(Rows(report), ElementsAre("c1 ads Job/x fewer_devices 9000", "c2 vision-detect Job/d cheaper_flavor 700",
                                        "c1 vision Job/a smaller_slice 500", "c1 vision Job/a fewer_devices 300"));
  EXPECT_EQ(report.recommendation_count(), 4);
  // Job/a's two kinds are alternatives: only its larger saving counts.
  EXPECT_EQ(report.savings_micro_per_month(), 9000 + 700 + 500);
  EXPECT_EQ(report.currency(), "EUR");
  EXPECT_EQ(report.start().seconds(), absl::ToUnixSeconds(kEnd - absl::Hours(24 * 14)));
  EXPECT_EQ(report.end().seconds(), absl::ToUnixSeconds(kEnd + absl::Hours(24)));
  EXPECT_EQ(report.computed_at().seconds(), absl::ToUnixSeconds(kEnd + absl::Minutes(5)));
  const v1::RightsizingRecommendation& first = report.recommendations(0);
  EXPECT_EQ(first.namespace_(), "ads-ns");
  EXPECT_EQ(first.current_milli(), 8000);
  EXPECT_EQ(first.proposed(), "6 x A100-SXM4-80GB");
  EXPECT_EQ(first.confidence(), "high");
  EXPECT_DOUBLE_EQ(first.p95_active_devices(), 5.2);
}

TEST_F(RightsizingQueryTest, TheLimitCutsTheListButNotTheTotals) {
  const v1::RightsizingReport report = Run(Scope{}, "", 2);
  EXPECT_EQ(report.recommendations_size(), 2);
  EXPECT_EQ(report.recommendation_count(), 4);
  EXPECT_EQ(report.savings_micro_per_month(), 10200);
  for (int32_t bad : {-1, 1001, std::numeric_limits<int32_t>::max()}) {
    v1::GetRightsizingRequest request;
    request.set_limit(bad);
    EXPECT_THAT(query_.Run(Scope{}, request), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("limit")));
  }
}

TEST_F(RightsizingQueryTest, ATeamIsItsSubtreeAndATeamTokenSeesOnlyItsOwn) {
  EXPECT_THAT(Rows(Run(Scope{}, "vision")),
              ElementsAre("c2 vision-detect Job/d cheaper_flavor 700", "c1 vision Job/a smaller_slice 500",
                          "c1 vision Job/a fewer_devices 300"));
  const Scope vision = TeamScope("vision", {"vision", "vision-detect"});
  EXPECT_THAT(Rows(Run(vision)), ElementsAre("c2 vision-detect Job/d cheaper_flavor 700",
                                             "c1 vision Job/a smaller_slice 500", "c1 vision Job/a fewer_devices 300"));
  EXPECT_THAT(Rows(Run(vision, "vision-detect")), ElementsAre("c2 vision-detect Job/d cheaper_flavor 700"));
  EXPECT_EQ(Run(vision).savings_micro_per_month(), 1200);
  v1::GetRightsizingRequest ads;
  ads.set_team("ads");
  EXPECT_THAT(query_.Run(vision, ads), StatusIs(absl::StatusCode::kPermissionDenied));
  ads.set_team("research");  // above the token's team: not its to read
  EXPECT_THAT(query_.Run(vision, ads), StatusIs(absl::StatusCode::kPermissionDenied));
}

TEST_F(RightsizingQueryTest, ClusterAndNamespaceNarrowTheList) {
  v1::GetRightsizingRequest request;
  request.set_cluster("c2");
  auto c2 = query_.Run(Scope{}, request);
  ASSERT_THAT(c2, IsOk());
  EXPECT_THAT(Rows(*c2), ElementsAre("c2 vision-detect Job/d cheaper_flavor 700"));
  request.set_cluster("");
  request.set_namespace_("ads-ns");
  auto ads = query_.Run(Scope{}, request);
  ASSERT_THAT(ads, IsOk());
  EXPECT_THAT(Rows(*ads), ElementsAre("c1 ads Job/x fewer_devices 9000"));
}

}  // namespace
}  // namespace fleetcap::api
