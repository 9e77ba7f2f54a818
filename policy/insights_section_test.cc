#include "policy/insights_section.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_replace.h"
#include "policy/test_policy.h"

namespace fleetcap::policy {
namespace {

using ::testing::HasSubstr;

ParsedPolicy WithSections(const std::string& yaml) {
  return ParsePolicy(absl::StrReplaceAll(kTestPolicy, {{"currency: USD\n", "currency: USD\n" + yaml}}));
}

std::string Errors(const ParsedPolicy& parsed) { return FormatPolicyErrors("test", parsed.errors); }

TEST(InsightsSection, DefaultsWhenAbsent) {
  ParsedPolicy parsed = WithSections("");
  ASSERT_TRUE(parsed.ok()) << Errors(parsed);
  EXPECT_EQ(parsed.document.insights.idle_below_basis_points, 500);
  EXPECT_EQ(parsed.document.insights.idle_for, absl::Hours(4));
  EXPECT_EQ(parsed.document.insights.rightsizing_lookback_days, 14);
  EXPECT_EQ(parsed.document.insights.memory_headroom_percent, 20);
  EXPECT_TRUE(parsed.document.budgets.empty());
}

TEST(InsightsSection, ReadsEveryOption) {
  ParsedPolicy parsed = WithSections(
      "insights:\n  idle_below: 2.5%\n  idle_for: 90m\n  rightsizing_lookback_days: 30\n"
      "  memory_headroom_percent: 10\n");
  ASSERT_TRUE(parsed.ok()) << Errors(parsed);
  EXPECT_EQ(parsed.document.insights.idle_below_basis_points, 250);
  EXPECT_EQ(parsed.document.insights.idle_for, absl::Minutes(90));
  EXPECT_EQ(parsed.document.insights.rightsizing_lookback_days, 30);
  EXPECT_EQ(parsed.document.insights.memory_headroom_percent, 10);
}

TEST(InsightsSection, BadOptionsNameTheFieldAndTheExpectation) {
  for (const auto& [yaml, field] : std::vector<std::pair<std::string, std::string>>{
           {"insights:\n  idle_below: 101%\n", "insights.idle_below"},
           {"insights:\n  idle_below: -1\n", "insights.idle_below"},
           {"insights:\n  idle_below: \"5\\0%\"\n", "insights.idle_below"},
           {"insights:\n  idle_for: 30s\n", "insights.idle_for"},
           {"insights:\n  idle_for: 90s\n", "insights.idle_for"},
           {"insights:\n  idle_for: 745h\n", "insights.idle_for"},
           {"insights:\n  idle_for: forever\n", "insights.idle_for"},
           {"insights:\n  rightsizing_lookback_days: 0\n", "insights.rightsizing_lookback_days"},
           {"insights:\n  memory_headroom_percent: 1e9\n", "insights.memory_headroom_percent"},
           {"insights:\n  idle_after: 4h\n", "insights.idle_after"},
       }) {
    ParsedPolicy parsed = WithSections(yaml);
    ASSERT_FALSE(parsed.ok()) << yaml;
    EXPECT_THAT(Errors(parsed), HasSubstr(field)) << yaml;
  }
}

TEST(InsightsSection, ReadsBudgets) {
  ParsedPolicy parsed = WithSections(
      "budgets:\n  - team: vision\n    month: 2026-12\n    amount: \"12000.50\"\n"
      "  - team: vision\n    month: 2027-01\n    amount: 9000\n");
  ASSERT_TRUE(parsed.ok()) << Errors(parsed);
  ASSERT_EQ(parsed.document.budgets.size(), 2u);
  EXPECT_EQ(parsed.document.budgets[0].team, "vision");
  EXPECT_EQ(parsed.document.budgets[0].year, 2026);
  EXPECT_EQ(parsed.document.budgets[0].month, 12);
  EXPECT_EQ(parsed.document.budgets[0].micro_amount, 12'000'500'000);
  EXPECT_EQ(parsed.document.budgets[1].month, 1);
}

TEST(InsightsSection, BadBudgetsNameTheFieldAndTheExpectation) {
  for (const auto& [yaml, expected] : std::vector<std::pair<std::string, std::string>>{
           {"budgets:\n  - team: nobody\n    month: 2026-12\n    amount: 1\n", "unknown team \"nobody\""},
           {"budgets:\n  - team: vision\n    month: 2026-13\n    amount: 1\n", "budgets[0].month"},
           {"budgets:\n  - team: vision\n    month: 26-12\n    amount: 1\n", "budgets[0].month"},
           {"budgets:\n  - team: vision\n    month: 2026-12\n    amount: -5\n", "budgets[0].amount"},
           {"budgets:\n  - team: vision\n    month: 2026-12\n", "budgets[0].amount"},
           {"budgets:\n  - team: vision\n    month: 2026-12\n    amount: 1\n  - team: vision\n    month: 2026-12\n"
            "    amount: 2\n",
            "already has a budget for 2026-12"},
           {"budgets: {team: vision}\n", "budgets"},
       }) {
    ParsedPolicy parsed = WithSections(yaml);
    ASSERT_FALSE(parsed.ok()) << yaml;
    EXPECT_THAT(Errors(parsed), HasSubstr(expected)) << yaml;
  }
}

}  // namespace
}  // namespace fleetcap::policy
