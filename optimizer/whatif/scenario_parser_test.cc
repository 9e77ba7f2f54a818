#include "optimizer/whatif/scenario_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/time_util.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::whatif {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

constexpr const char* kFull = R"(version: 1
description: Eight more H100s in January; vision doubles
capacity:
  - flavor: h100
    add: 8
    from: 2027-01-01T00:00:00Z
  - flavor: t4
    remove: 2.5
    from: 2027-02-01T00:00:00Z
demand:
  - team: vision
    factor: 2
  - team: speech
    flavor: t4
    factor: 0.5
prices:
  - flavor: h100
    per_device_hour: 2.75
    from: 2027-01-01T00:00:00Z
policy:
  version: 3
)";

TEST(ParseScenario, ReadsEveryKindOfChange) {
  ParsedScenario s = ParseScenario(kFull);
  ASSERT_TRUE(s.ok()) << policy::FormatPolicyErrors("scenario", s.errors);
  const ScenarioDocument& d = s.document;
  EXPECT_EQ(d.description, "Eight more H100s in January; vision doubles");
  ASSERT_EQ(d.capacity.size(), 2u);
  EXPECT_EQ(d.capacity[0].flavor, "h100");
  EXPECT_EQ(d.capacity[0].delta_milli, 8000);
  EXPECT_EQ(d.capacity[0].from, absl::FromCivil(absl::CivilDay(2027, 1, 1), absl::UTCTimeZone()));
  EXPECT_EQ(d.capacity[0].line, 4);
  EXPECT_EQ(d.capacity[1].delta_milli, -2500);
  ASSERT_EQ(d.demand.size(), 2u);
  EXPECT_EQ(d.demand[0].team, "vision");
  EXPECT_EQ(d.demand[0].flavor, "");
  EXPECT_EQ(d.demand[0].factor_micro, 2'000'000);
  EXPECT_EQ(d.demand[1].flavor, "t4");
  EXPECT_EQ(d.demand[1].factor_micro, 500'000);
  ASSERT_EQ(d.prices.size(), 1u);
  EXPECT_EQ(d.prices[0].micro_per_device_hour, 2'750'000);
  ASSERT_TRUE(d.policy.has_value());
  EXPECT_EQ(d.policy->version, 3);
}

TEST(ParseScenario, KeepsAPolicyPatchAsWritten) {
  ParsedScenario s = ParseScenario(R"(version: 1
policy:
  patch:
    allocation:
      - team: vision
        flavor: h100
        guarantee: 4
)");
  ASSERT_TRUE(s.ok()) << policy::FormatPolicyErrors("scenario", s.errors);
  ASSERT_TRUE(s.document.policy.has_value());
  EXPECT_FALSE(s.document.policy->version.has_value());
  EXPECT_TRUE(s.document.policy->patch["allocation"].IsSequence());
}

// Each case: a document and the one error it must give, as formatted.
struct ErrorCase {
  const char* name;
  std::string text;
  std::string error;  // "LINE:COLUMN: FIELD: MESSAGE" (a substring of it)
};

class ScenarioErrorsTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ScenarioErrorsTest, NamesTheLineAndField) {
  ParsedScenario s = ParseScenario(GetParam().text);
  ASSERT_EQ(s.errors.size(), 1u) << policy::FormatPolicyErrors("scenario", s.errors);
  EXPECT_THAT(policy::FormatPolicyError("scenario", s.errors[0]), HasSubstr(GetParam().error));
  EXPECT_THAT(ScenarioErrors(s.errors), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(GetParam().error)));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ScenarioErrorsTest,
    ::testing::Values(
        ErrorCase{"unknown_top_level_key", "version: 1\nbudget: 3\n",
                  "scenario:2:1: budget: unknown key \"budget\" (expected one of version, description, capacity, "
                  "demand, prices, policy)"},
        ErrorCase{"missing_version", "capacity: []\n", "scenario:1:1: version: missing (required)"},
        ErrorCase{"unknown_version", "version: 2\n", "scenario:1:10: version: \"2\" is not a known scenario version"},
        ErrorCase{"repeated_key", "version: 1\nversion: 1\n",
                  "scenario:2:1: version: key \"version\" appears at lines 1 and 2"},
        ErrorCase{"capacity_not_a_list", "version: 1\ncapacity: 8\n", "scenario:2:11: capacity: expected a list"},
        ErrorCase{"capacity_unknown_key",
                  "version: 1\ncapacity:\n  - flavor: h100\n    add: 1\n    from: 2027-01-01T00:00:00Z\n    pool: x\n",
                  "scenario:6:5: capacity[0].pool: unknown key \"pool\""},
        ErrorCase{
            "capacity_add_and_remove",
            "version: 1\ncapacity:\n  - flavor: h100\n    add: 1\n    remove: 1\n    from: 2027-01-01T00:00:00Z\n",
            "scenario:3:5: capacity[0]: expected exactly one of add or remove"},
        ErrorCase{"capacity_zero_devices",
                  "version: 1\ncapacity:\n  - flavor: h100\n    add: 0\n    from: 2027-01-01T00:00:00Z\n",
                  "scenario:4:10: capacity[0].add: \"0\" is outside the range of a number of devices"},
        ErrorCase{"capacity_negative_devices",
                  "version: 1\ncapacity:\n  - flavor: h100\n    remove: -2\n    from: 2027-01-01T00:00:00Z\n",
                  "scenario:4:13: capacity[0].remove: negative number of devices -2"},
        ErrorCase{"capacity_too_many_decimals",
                  "version: 1\ncapacity:\n  - flavor: h100\n    add: 1.0001\n    from: 2027-01-01T00:00:00Z\n",
                  "scenario:4:10: capacity[0].add: \"1.0001\" is not a decimal number with at most 3 digits"},
        ErrorCase{"capacity_bad_date", "version: 1\ncapacity:\n  - flavor: h100\n    add: 1\n    from: January\n",
                  "scenario:5:11: capacity[0].from: \"January\" is not an RFC 3339 timestamp"},
        ErrorCase{"capacity_missing_flavor", "version: 1\ncapacity:\n  - add: 1\n    from: 2027-01-01T00:00:00Z\n",
                  "scenario:3:5: capacity[0].flavor: missing (required)"},
        ErrorCase{"capacity_flavor_not_a_name",
                  "version: 1\ncapacity:\n  - flavor: \"h 100\"\n    add: 1\n    from: 2027-01-01T00:00:00Z\n",
                  "scenario:3:13: capacity[0].flavor: \"h 100\" is not a name"},
        ErrorCase{"capacity_flavor_a_list",
                  "version: 1\ncapacity:\n  - flavor: [a, b]\n    add: 1\n    from: 2027-01-01T00:00:00Z\n",
                  "scenario:3:13: capacity[0].flavor: expected a single value"},
        ErrorCase{"demand_missing_factor", "version: 1\ndemand:\n  - team: vision\n",
                  "scenario:3:5: demand[0].factor: missing (required)"},
        ErrorCase{"demand_factor_not_a_number", "version: 1\ndemand:\n  - team: vision\n    factor: double\n",
                  "scenario:4:13: demand[0].factor: \"double\" is not a decimal number"},
        ErrorCase{"demand_factor_too_large", "version: 1\ndemand:\n  - team: vision\n    factor: 1000.5\n",
                  "scenario:4:13: demand[0].factor: \"1000.5\" is too large (expected at most 1000)"},
        ErrorCase{"demand_entry_not_a_map", "version: 1\ndemand:\n  - vision\n",
                  "scenario:3:5: demand[0]: expected a mapping"},
        ErrorCase{"price_negative",
                  "version: 1\nprices:\n  - flavor: h100\n    per_device_hour: -1\n    from: 2027-01-01T00:00:00Z\n",
                  "scenario:4:22: prices[0].per_device_hour: negative price -1"},
        ErrorCase{
            "price_too_large",
            "version: 1\nprices:\n  - flavor: h100\n    per_device_hour: 1000001\n    from: 2027-01-01T00:00:00Z\n",
            "scenario:4:22: prices[0].per_device_hour: \"1000001\" is too large"},
        ErrorCase{"policy_version_and_patch", "version: 1\npolicy:\n  version: 2\n  patch:\n    teams: []\n",
                  "scenario:3:3: policy: expected exactly one of version (a stored policy version) or patch"},
        ErrorCase{"policy_version_zero", "version: 1\npolicy:\n  version: 0\n",
                  "scenario:3:12: policy.version: \"0\" is not a policy version"},
        ErrorCase{"policy_patch_unknown_section", "version: 1\npolicy:\n  patch:\n    currency: EUR\n",
                  "scenario:4:5: policy.patch.currency: unknown key \"currency\""},
        ErrorCase{"policy_patch_empty", "version: 1\npolicy:\n  patch: {}\n",
                  "scenario:3:10: policy.patch: empty (expected at least one policy section to replace)"},
        ErrorCase{"description_control_characters", "version: 1\ndescription: \"a\\u0007b\"\n",
                  "scenario:2:14: description:"},
        ErrorCase{"not_yaml", "version: 1\ncapacity: [\n", "scenario:3:1: document: not valid YAML"},
        ErrorCase{"not_utf8", std::string("version: 1\ndescription: \xff\n"),
                  "scenario: document: not valid UTF-8 text"},
        ErrorCase{"too_large", "version: 1\ndescription: " + std::string(kMaxScenarioBytes, 'a') + "\n",
                  "scenario: document: 65561 bytes, expected at most 65536"},
        ErrorCase{"too_many_entries",
                  [] {
                    std::string s = "version: 1\ndemand:\n";
                    for (size_t i = 0; i <= kMaxScenarioEntries; ++i) s += "  - {team: t, factor: 1}\n";
                    return s;
                  }(),
                  "scenario:3:3: demand: 101 entries, expected at most 100"}),
    [](const ::testing::TestParamInfo<ErrorCase>& case_info) { return std::string(case_info.param.name); });

TEST(ParseScenario, ReportsEveryProblemAtOnceInLineOrder) {
  ParsedScenario s = ParseScenario("version: 1\nprices:\n  - flavor: h100\n    from: x\ncolour: red\n");
  ASSERT_EQ(s.errors.size(), 3u) << policy::FormatPolicyErrors("scenario", s.errors);
  EXPECT_EQ(s.errors[0].line, 3);  // per_device_hour missing (the entry's line)
  EXPECT_EQ(s.errors[1].line, 4);  // from
  EXPECT_EQ(s.errors[2].line, 5);  // colour
}

TEST(ScenarioErrors, IsOkWithoutErrors) { EXPECT_THAT(ScenarioErrors({}), IsOk()); }

}  // namespace
}  // namespace fleetcap::whatif
