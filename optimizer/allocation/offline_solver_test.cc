#include "optimizer/allocation/offline_solver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "services/exports/recommendation_set.h"

namespace fleetcap::allocation {
namespace {

using ::testing::HasSubstr;

constexpr const char* kPolicy = R"(version: 1
teams:
  - name: org
  - name: lab-a
    parent: org
  - name: lab-b
    parent: org
flavors:
  - name: gpu
    model: A100-SXM4-80GB
    capacity: 10
allocation:
  - {team: lab-a, flavor: gpu, guarantee: 4, borrowing_limit: 2, lending_limit: 1}
)";

SolverInput Input(std::string demand, std::string policy = kPolicy) {
  return {"policy.yaml", std::move(policy), "demand.yaml", std::move(demand)};
}

TEST(SolveOffline, JsonIsTheApisRecommendationSetAndOmitsAnUnlimitedBorrowingLimit) {
  auto solved =
      SolveOffline(Input("demand:\n  - {team: lab-a, flavor: gpu, devices: 9}\n"
                         "  - {team: lab-b, flavor: gpu, devices: 9}\n"));
  ASSERT_TRUE(solved.ok()) << solved.status();
  exports::RecommendationSetHeader header;
  header.computed_at = absl::FromUnixSeconds(1'772'366'400);
  const auto json = nlohmann::json::parse(exports::RecommendationSetJson(header, *solved));
  EXPECT_EQ(json["runId"], "0");
  EXPECT_EQ(json["policyVersion"], 0);
  EXPECT_EQ(json["computedAt"], "2026-03-01T12:00:00Z");
  ASSERT_EQ(json["recommendations"].size(), 2u);
  const auto& a = json["recommendations"][0];
  EXPECT_EQ(a["team"], "lab-a");
  EXPECT_EQ(a["flavor"], "gpu");
  // int64 fields are strings in proto3 JSON.
  EXPECT_EQ(a["demandMilli"], "9000");
  EXPECT_EQ(a["guaranteeMilli"], "4000");
  EXPECT_EQ(a["recommendedMilli"], "6000");
  EXPECT_EQ(a["borrowingLimitMilli"], "2000");
  EXPECT_EQ(a["lendingLimitMilli"], "1000");
  EXPECT_EQ(a["boundBy"], "borrowing_limit");
  const auto& b = json["recommendations"][1];
  EXPECT_FALSE(b.contains("borrowingLimitMilli"));
  EXPECT_EQ(b["recommendedMilli"], "4000");
  EXPECT_EQ(b["lendingLimitMilli"], "0");
}

TEST(SolveOffline, TableShowsDevicesAsDecimals) {
  auto solved = SolveOffline(Input("demand:\n  - {team: lab-b, flavor: gpu, devices: 2.25}\n"));
  ASSERT_TRUE(solved.ok()) << solved.status();
  const std::string table = RecommendationsTable(*solved);
  EXPECT_THAT(table, HasSubstr("TEAM"));
  EXPECT_THAT(table, HasSubstr("lab-b  gpu"));
  EXPECT_THAT(table, HasSubstr("2.25"));
  EXPECT_THAT(table, HasSubstr("demand 2.25 met, all borrowed"));
}

TEST(SolveOffline, ErrorsNameTheFileLineAndField) {
  auto unknown =
      SolveOffline(Input("demand:\n  - {team: lab-z, flavor: gpu, devices: 1}\n"
                         "  - {team: org, flavor: tpu, devices: 1}\n"
                         "capacity:\n  - {flavor: tpu, devices: 1}\n"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("demand.yaml:2: demand[0].team: unknown team \"lab-z\""));
  EXPECT_THAT(unknown.status().message(), HasSubstr("demand.yaml:3: demand[1].team: team org has teams below it"));
  EXPECT_THAT(unknown.status().message(), HasSubstr("demand.yaml:3: demand[1].flavor: unknown flavor \"tpu\""));
  EXPECT_THAT(unknown.status().message(), HasSubstr("demand.yaml:5: capacity[0].flavor: unknown flavor \"tpu\""));

  std::string policy = kPolicy;
  policy += "  - {team: org, flavor: gpu, guarantee: 1}\n";
  auto interior = SolveOffline(Input("demand: []\n", policy));
  ASSERT_FALSE(interior.ok());
  EXPECT_THAT(interior.status().message(),
              HasSubstr("policy.yaml:14: allocation[1].team: team org has teams below it"));

  auto bad_policy = SolveOffline(Input("demand: []\n", "version: 1\nteams: 3\n"));
  ASSERT_FALSE(bad_policy.ok());
  EXPECT_THAT(bad_policy.status().message(), HasSubstr("policy.yaml:2:"));
}

}  // namespace
}  // namespace fleetcap::allocation
