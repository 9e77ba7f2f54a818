#include "policy/policy_diff.h"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "policy/policy_parser.h"
#include "policy/test_policy.h"

namespace fleetcap::policy {
namespace {

PolicyDocument Parse(const std::string& text) {
  ParsedPolicy parsed = ParsePolicy(text);
  EXPECT_TRUE(parsed.ok()) << FormatPolicyErrors("", parsed.errors);
  return parsed.document;
}

TEST(PolicyDiff, SamePolicyHasNoChanges) { EXPECT_TRUE(DiffPolicies(Parse(kTestPolicy), Parse(kTestPolicy)).empty()); }

TEST(PolicyDiff, SaysWhatChangedInPlannerTerms) {
  const std::string edited = absl::StrReplaceAll(
      kTestPolicy, {{"per_device_hour: \"0.40\"", "per_device_hour: \"0.42\""},
                    {"  - name: speech\n    parent: research\n",
                     "  - name: speech\n    parent: research\n  - name: audio\n    parent: speech\n"},
                    {"basis: max", "basis: usage"},
                    {"  - namespace: cv-train\n    team: vision\n", "  - namespace: cv-train\n    team: speech\n"},
                    {"    guarantee: 40\n", "    guarantee: 45\n"},
                    {"    capacity: 100\n", "    capacity: 120\n"}});
  const std::vector<std::string> changes = DiffPolicies(Parse(kTestPolicy), Parse(edited));
  const std::vector<std::string> expected = {
      "team added: audio (under speech)",
      "namespace cv-train in clusters * moved from team vision to speech",
      "flavor t4-default capacity: 100 -> 120",
      "price of T4 in all clusters from 2026-02-01T00:00:00Z: 0.40 -> 0.42 per device-hour",
      "attribution basis: max -> usage",
      "allocation of vision on t4-default guarantee: 40 -> 45",
  };
  EXPECT_EQ(changes, expected);
}

TEST(PolicyDiff, InsightsOptionsAndBudgets) {
  const std::string before = absl::StrCat(kTestPolicy, R"(budgets:
  - {team: vision, month: 2026-12, amount: "100"}
  - {team: speech, month: 2026-12, amount: "50.5"}
)");
  const std::string after = absl::StrCat(kTestPolicy, R"(insights:
  idle_below: 2.5%
  idle_for: 90m
  rightsizing_lookback_days: 28
  memory_headroom_percent: 10
budgets:
  - {team: vision, month: 2026-12, amount: "120"}
  - {team: vision, month: 2027-01, amount: "0.000001"}
)");
  const std::vector<std::string> expected = {
      "insights idle below: 5% -> 2.5%",
      "insights idle for: 4h -> 1h30m",
      "insights rightsizing lookback: 14 days -> 28 days",
      "insights memory headroom: 20% -> 10%",
      "budget of vision for 2026-12: 100.00 -> 120.00",
      "budget of vision for 2027-01 added: 0.000001",
      "budget of speech for 2026-12 removed (was 50.50)",
  };
  EXPECT_EQ(DiffPolicies(Parse(before), Parse(after)), expected);
}

TEST(PolicyDiff, DeclaredDemandGivenAndWithdrawn) {
  const std::string declared =
      absl::StrReplaceAll(kTestPolicy, {{"    weight: 3\n", "    weight: 3\n    demand: 12.5\n"}});
  EXPECT_EQ(DiffPolicies(Parse(kTestPolicy), Parse(declared)),
            (std::vector<std::string>{"allocation of speech on t4-default declared demand: measured -> 12.5"}));
  EXPECT_EQ(DiffPolicies(Parse(declared), Parse(kTestPolicy)),
            (std::vector<std::string>{"allocation of speech on t4-default declared demand: 12.5 -> measured"}));
}

TEST(PolicyDiff, AddedAndRemovedEntries) {
  const PolicyDocument empty = Parse("version: 1\n");
  const PolicyDocument full = Parse(kTestPolicy);
  const std::vector<std::string> added = DiffPolicies(empty, full);
  EXPECT_NE(std::find(added.begin(), added.end(), "org added: research (under (root))"), added.end());
  EXPECT_NE(std::find(added.begin(), added.end(),
                      "price of T4 in cluster eu-1 from 2026-01-01T00:00:00Z added: 0.45 per device-hour"),
            added.end());
  const std::vector<std::string> removed = DiffPolicies(full, empty);
  EXPECT_NE(std::find(removed.begin(), removed.end(), "project removed: vision-detect"), removed.end());
  EXPECT_NE(std::find(removed.begin(), removed.end(), "allocation of speech on t4-default removed"), removed.end());
}

TEST(PolicyDiff, TrustGivenChangedAndWithdrawn) {
  const std::string edited = absl::StrReplaceAll(
      kTestPolicy, {{"    team_label: true\n", "    team_label: true\n    gpu_share: true\n"},
                    {"  - cluster: eu-1\n    gpu_share: true\n", "  - cluster: eu-2\n    gpu_share: true\n"}});
  const std::vector<std::string> expected = {
      "pods in namespaces matching * in clusters eu-2: trusted for GPU share",
      "pods in namespaces matching shared-* in clusters * trusted for: team label -> team label and GPU share",
      "pods in namespaces matching * in clusters eu-1: no longer trusted (was GPU share)",
  };
  EXPECT_EQ(DiffPolicies(Parse(kTestPolicy), Parse(edited)), expected);
}

}  // namespace
}  // namespace fleetcap::policy
