// The policy's throughput matrix and workload classes through the offline
// solver (`fleetcap-optimizer allocate --heterogeneity`), and the policy's
// refusals of a bad matrix.

#include "optimizer/allocation/heterogeneity_problem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "optimizer/allocation/offline_solver.h"
#include "policy/policy_parser.h"

namespace fleetcap::allocation {
namespace {

using ::testing::HasSubstr;

// Two labs of one device's demand each on a cluster of one fast and one slow
// GPU: vision runs 4x faster on the fast one, speech the same on both. The
// GPUs are time-sliced, so that water-filling's halves stay halves.
constexpr const char* kHeterogeneityPolicy = R"(version: 1
teams:
  - name: org
  - {name: vision, parent: org, workload_class: resnet}
  - {name: speech, parent: org, workload_class: lstm}
flavors:
  - {name: fast, model: V100, capacity: 1, sharing: time-slicing}
  - {name: slow, model: K80, capacity: 1, sharing: time-slicing}
throughput:
  - {class: resnet, flavor: fast, value: 4}
  - {class: resnet, flavor: slow, value: 1}
  - {class: lstm, flavor: fast, value: 2.5}
  - {class: lstm, flavor: slow, value: 2.5}
)";

constexpr const char* kDemand = R"(demand:
  - {team: vision, flavor: fast, devices: 0.5}
  - {team: vision, flavor: slow, devices: 0.5}
  - {team: speech, flavor: fast, devices: 0.5}
  - {team: speech, flavor: slow, devices: 0.5}
)";

SolverInput HeterogeneityInput(std::string policy, bool heterogeneity) {
  SolverInput in{"policy.yaml", std::move(policy), "demand.yaml", kDemand};
  in.heterogeneity = heterogeneity;
  return in;
}

TEST(HeterogeneityProblem, EachLabGetsTheGpuItGainsMostOn) {
  auto solved = SolveOffline(HeterogeneityInput(kHeterogeneityPolicy, true));
  ASSERT_TRUE(solved.ok()) << solved.status();
  ASSERT_EQ(solved->size(), 4u);
  // Ordered by team then flavor: speech fast, speech slow, vision fast, vision slow.
  EXPECT_EQ((*solved)[0].recommended_milli, 0);
  EXPECT_EQ((*solved)[1].recommended_milli, 1000);
  EXPECT_EQ((*solved)[2].recommended_milli, 1000);
  EXPECT_EQ((*solved)[3].recommended_milli, 0);
  EXPECT_EQ((*solved)[2].bound_by, "demand");
  EXPECT_THAT((*solved)[2].explanation, HasSubstr("normalised throughput 1.600 at weight 1 (class resnet)"));
  // Without the option, each flavor is split by water-filling: half each.
  auto agnostic = SolveOffline(HeterogeneityInput(kHeterogeneityPolicy, false));
  ASSERT_TRUE(agnostic.ok()) << agnostic.status();
  for (const Recommendation& r : *agnostic) EXPECT_EQ(r.recommended_milli, 500) << r.team << " " << r.flavor;
}

TEST(HeterogeneityProblem, ATeamWithoutAWorkloadClassIsNamed) {
  std::string policy = kHeterogeneityPolicy;
  policy.replace(policy.find(", workload_class: lstm"), 22, "");
  auto solved = SolveOffline(HeterogeneityInput(policy, true));
  EXPECT_THAT(std::string(solved.status().message()), HasSubstr("team speech: no workload_class"));
}

TEST(HeterogeneityProblem, PolicyRefusesABadMatrixNamingLineAndField) {
  const std::string bad = std::string(kHeterogeneityPolicy) +
                          "  - {class: lstm, flavor: fast, value: 3}\n"
                          "  - {class: lstm, flavor: tpu, value: 1}\n"
                          "  - {class: bert, flavor: slow, value: -1}\n";
  policy::ParsedPolicy parsed = policy::ParsePolicy(bad);
  const std::string errors = policy::FormatPolicyErrors("policy.yaml", parsed.errors);
  EXPECT_THAT(errors, HasSubstr("policy.yaml:14: throughput[4]: class lstm on flavor fast is already set at line 12"));
  EXPECT_THAT(errors, HasSubstr("policy.yaml:15: throughput[5].flavor: unknown flavor \"tpu\""));
  EXPECT_THAT(errors, HasSubstr("throughput[6].value: negative throughput -1"));
  std::string unknown = kHeterogeneityPolicy;
  unknown.replace(unknown.find("workload_class: lstm"), 20, "workload_class: gpt");
  parsed = policy::ParsePolicy(unknown);
  EXPECT_THAT(policy::FormatPolicyErrors("policy.yaml", parsed.errors),
              HasSubstr("policy.yaml:5: teams[2].workload_class: unknown workload class \"gpt\""));
  std::string zero = kHeterogeneityPolicy;
  zero.replace(zero.find("flavor: fast, value: 2.5"), 24, "flavor: fast, value: 0");
  zero.replace(zero.find("flavor: slow, value: 2.5"), 24, "flavor: slow, value: 0");
  parsed = policy::ParsePolicy(zero);
  EXPECT_THAT(policy::FormatPolicyErrors("policy.yaml", parsed.errors),
              HasSubstr("workload class lstm has no throughput on any flavor"));
}

}  // namespace
}  // namespace fleetcap::allocation
