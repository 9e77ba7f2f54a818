#include "policy/policy_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_replace.h"
#include "common/time_util.h"
#include "policy/test_policy.h"
#include "tests/support/build_paths.h"

namespace fleetcap::policy {
namespace {

using ::testing::HasSubstr;

TEST(PolicyParser, ReadsEveryPartOfAValidDocument) {
  ParsedPolicy parsed = ParsePolicy(kTestPolicy);
  ASSERT_TRUE(parsed.ok()) << FormatPolicyErrors("test", parsed.errors);
  const PolicyDocument& d = parsed.document;
  ASSERT_EQ(d.teams.size(), 4u);
  EXPECT_EQ(d.teams[0].kind, "org");
  EXPECT_EQ(d.teams[0].cost_centre, "CC-100");
  EXPECT_EQ(d.teams[1].parent, "research");
  EXPECT_EQ(d.teams[1].weight, 2);
  EXPECT_EQ(d.teams[1].line, 7);
  ASSERT_EQ(d.namespaces.size(), 2u);
  EXPECT_EQ(d.namespaces[0].cluster, "*");
  EXPECT_EQ(d.namespaces[1].pattern, "speech-*");
  EXPECT_EQ(d.namespaces[1].cluster, "eu-*");
  EXPECT_EQ(d.team_label_keys, (std::vector<std::string>{"fleetcap.io/team", "team"}));
  ASSERT_EQ(d.trusted_pods.size(), 2u);
  EXPECT_EQ(d.trusted_pods[0].namespace_pattern, "shared-*");
  EXPECT_EQ(d.trusted_pods[0].cluster, "*");
  EXPECT_TRUE(d.trusted_pods[0].team_label);
  EXPECT_FALSE(d.trusted_pods[0].gpu_share);
  EXPECT_EQ(d.trusted_pods[1].cluster, "eu-1");
  EXPECT_EQ(d.trusted_pods[1].namespace_pattern, "*");
  EXPECT_TRUE(d.trusted_pods[1].gpu_share);
  ASSERT_EQ(d.flavors.size(), 1u);
  EXPECT_EQ(d.flavors[0].capacity_milli, 100000);
  EXPECT_EQ(d.demand_headroom_percent, 20);  // the default
  EXPECT_EQ(d.flavors[0].sharing, "whole");  // the default: quotas in whole devices
  EXPECT_TRUE(d.flavors[0].WholeDevices());
  ASSERT_EQ(d.prices.size(), 3u);
  EXPECT_EQ(d.prices[0].micro_per_device_hour, 350000);
  EXPECT_EQ(FormatRfc3339(*d.prices[0].to), "2026-02-01T00:00:00Z");
  EXPECT_FALSE(d.prices[1].to.has_value());
  EXPECT_EQ(d.prices[2].cluster, "eu-1");
  EXPECT_EQ(d.attribution.basis, "max");
  EXPECT_EQ(d.attribution.idle_scope, "node");
  ASSERT_EQ(d.attribution.fixed_monthly_costs.size(), 1u);
  EXPECT_EQ(d.attribution.fixed_monthly_costs[0].micro_per_month, 1200000000);
  ASSERT_EQ(d.allocation.size(), 2u);
  EXPECT_EQ(d.allocation[0].borrowing_limit_milli, 20000);
  EXPECT_EQ(d.allocation[1].guarantee_milli, 30500);
  EXPECT_FALSE(d.allocation[1].borrowing_limit_milli.has_value());
  EXPECT_EQ(d.allocation[1].weight, 3);
  EXPECT_FALSE(d.allocation[1].demand_milli.has_value());
  EXPECT_EQ(Subtree(d, "research"), (std::vector<std::string>{"research", "vision", "speech", "vision-detect"}));
  EXPECT_EQ(Subtree(d, "vision"), (std::vector<std::string>{"vision", "vision-detect"}));
  EXPECT_TRUE(Subtree(d, "nobody").empty());
}

// Each case edits the valid document and names the line and field the error must carry.
struct Case {
  std::string name;
  std::string from;
  std::string to;
  int line;
  std::string field;
  std::string mentions;
};

TEST(PolicyParser, EveryErrorNamesLineFieldAndExpectation) {
  const std::vector<Case> cases = {
      {"unknown team in a mapping", "  - namespace: cv-train\n    team: vision\n",
       "  - namespace: cv-train\n    team: visoin\n", 17, "namespaces[0].team", "unknown team \"visoin\""},
      {"overlapping price periods", "    from: 2026-02-01T00:00:00Z\n    per_device_hour: \"0.40\"",
       "    from: 2026-01-15T00:00:00Z\n    per_device_hour: \"0.40\"", 34, "prices[1].from",
       "overlaps the one at line 30"},
      {"guarantee sum above capacity", "    guarantee: 30.5\n", "    guarantee: 60.5\n", 56, "allocation[1].guarantee",
       "sum to at least 100.5 devices, above its capacity 100"},
      {"cycle in the tree", "  - name: research\n    kind: org\n",
       "  - name: research\n    kind: org\n    parent: vision-detect\n", 6, "teams[0].parent",
       "cycle in the org tree: research -> vision-detect -> vision -> research"},
      {"negative price", "per_device_hour: \"0.45\"", "per_device_hour: \"-0.45\"", 39, "prices[2].per_device_hour",
       "negative price -0.45"},
      {"unknown key", "    weight: 2\n", "    wieght: 2\n", 9, "teams[1].wieght",
       "unknown key \"wieght\" (expected one of"},
      {"unknown top-level key", "currency: USD\n", "currency: USD\nquotas: {}\n", 3, "quotas", "unknown key"},
      {"unknown parent", "    parent: vision\n", "    parent: vison\n", 14, "teams[3].parent",
       "unknown team \"vison\""},
      {"bad basis", "basis: max", "basis: most", 41, "attribution.basis", "not one of request, usage, max"},
      {"bad idle scope", "idle_scope: node", "idle_scope: pod", 43, "attribution.idle_scope",
       "not one of cluster, node"},
      {"unknown flavor", "    flavor: t4-default\n    guarantee: 40", "    flavor: t4-big\n    guarantee: 40", 50,
       "allocation[0].flavor", "unknown flavor \"t4-big\""},
      {"lending above guarantee", "lending_limit: 10", "lending_limit: 50", 53, "allocation[0].lending_limit",
       "above the guarantee"},
      {"price period ends before it starts", "    to: 2026-02-01T00:00:00Z\n", "    to: 2025-02-01T00:00:00Z\n", 31,
       "prices[0].to", "must be after from"},
      {"bad timestamp", "    from: 2026-02-01T00:00:00Z\n", "    from: next tuesday\n", 34, "prices[1].from",
       "not an RFC 3339 timestamp"},
      {"bad weight", "    weight: 3\n", "    weight: -3\n", 57, "allocation[1].weight", "expected a whole number"},
      {"negative declared demand", "    weight: 3\n", "    weight: 3\n    demand: -2\n", 58, "allocation[1].demand",
       "negative demand -2"},
      {"declared demand above a billion devices", "    weight: 3\n", "    weight: 3\n    demand: 1000000000.001\n", 58,
       "allocation[1].demand", "above 1000000000 devices"},
      {"bad currency", "currency: USD", "currency: dollars", 2, "currency", "ISO 4217"},
      {"negative headroom", "currency: USD", "currency: USD\ndemand_headroom_percent: -5", 3, "demand_headroom_percent",
       "expected a whole percent from 0 to 1000"},
      {"headroom above 1000%", "currency: USD", "currency: USD\ndemand_headroom_percent: 1001", 3,
       "demand_headroom_percent", "expected a whole percent from 0 to 1000"},
      {"fractional headroom", "currency: USD", "currency: USD\ndemand_headroom_percent: 12.5", 3,
       "demand_headroom_percent", "not a headroom"},
      {"wrong schema version", "version: 1", "version: 2", 1, "version", "expected 1"},
      {"duplicate team", "  - name: speech\n", "  - name: vision\n", 10, "teams[2].name", "already defined at line 7"},
      {"reserved team", "  - name: speech\n", "  - name: unassigned\n", 10, "teams[2].name", "reserved"},
      {"both namespace and pattern", "  - pattern: \"speech-*\"\n", "  - pattern: \"speech-*\"\n    namespace: x\n", 18,
       "namespaces[1]", "exactly one of namespace"},
      {"injection in a name", "  - name: speech\n", "  - name: \"'; DROP TABLE teams; --\"\n", 10, "teams[2].name",
       "is not a name"},
      {"bad sharing", "    model: T4\n", "    model: T4\n    sharing: halves\n", 25, "flavors[0].sharing",
       "not one of whole, mig, time-slicing"},
      {"missing required field", "    model: T4\n    pool: default\n", "    pool: default\n", 23, "flavors[0].model",
       "missing (required)"},
      {"trust that trusts nothing", "    gpu_share: true\n", "    gpu_share: false\n", 61, "trusted_pods[1]",
       "trusts nothing"},
      {"trust not a boolean", "    team_label: true\n", "    team_label: yes\n", 60, "trusted_pods[0].team_label",
       "is not true or false"},
      {"trust listed twice", "  - cluster: eu-1\n", "  - namespace: \"shared-*\"\n", 61, "trusted_pods[1]",
       "already listed at line 59"},
      {"not a list", "team_label_keys: [fleetcap.io/team, team]", "team_label_keys: team", 21, "team_label_keys",
       "expected a list"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string text = kTestPolicy;
    ASSERT_THAT(text, HasSubstr(c.from)) << "case does not apply: " << c.from;
    const std::string edited = absl::StrReplaceAll(text, {{c.from, c.to}});
    ParsedPolicy parsed = ParsePolicy(edited);
    ASSERT_FALSE(parsed.ok()) << edited;
    bool found = false;
    for (const auto& e : parsed.errors) {
      if (e.field == c.field && e.line == c.line && e.message.find(c.mentions) != std::string::npos) found = true;
    }
    EXPECT_TRUE(found) << "wanted line " << c.line << " field " << c.field << " mentioning " << c.mentions << "; got:\n"
                       << FormatPolicyErrors("policy.yaml", parsed.errors);
  }
}

TEST(PolicyParser, FlavorSharingSaysWhetherQuotasAreWholeDevices) {
  for (const std::string sharing : {"mig", "time-slicing"}) {
    const std::string edited =
        absl::StrReplaceAll(kTestPolicy, {{"    model: T4\n", "    model: T4\n    sharing: " + sharing + "\n"}});
    ParsedPolicy parsed = ParsePolicy(edited);
    ASSERT_TRUE(parsed.ok()) << FormatPolicyErrors("test", parsed.errors);
    EXPECT_EQ(parsed.document.flavors[0].sharing, sharing);
    EXPECT_FALSE(parsed.document.flavors[0].WholeDevices());
  }
}

TEST(PolicyParser, DemandHeadroomIsAWholePercent) {
  for (const auto& [text, percent] :
       std::vector<std::pair<std::string, int64_t>>{{"0", 0}, {"35", 35}, {"1000", 1000}}) {
    const std::string edited = absl::StrReplaceAll(
        kTestPolicy, {{"currency: USD\n", "currency: USD\ndemand_headroom_percent: " + text + "\n"}});
    ParsedPolicy parsed = ParsePolicy(edited);
    ASSERT_TRUE(parsed.ok()) << FormatPolicyErrors("test", parsed.errors);
    EXPECT_EQ(parsed.document.demand_headroom_percent, percent);
  }
}

TEST(PolicyParser, ErrorFormatNamesSourceLineAndField) {
  ParsedPolicy parsed = ParsePolicy("version: 1\nteams:\n  - name: a\n    colour: red\n");
  ASSERT_EQ(parsed.errors.size(), 1u);
  EXPECT_EQ(FormatPolicyError("p.yaml", parsed.errors[0]),
            "p.yaml:4:5: teams[0].colour: unknown key \"colour\" (expected one of name, parent, kind, weight, "
            "cost_centre, workload_class)");
}

TEST(PolicyParser, RefusesWhatIsNotYamlText) {
  struct Bad {
    std::string text;
    std::string mentions;
  };
  for (const Bad& b : std::vector<Bad>{{"version: 1\nteams: [\n", "not valid YAML"},
                                       {std::string("version: 1\0", 11), "not valid UTF-8"},
                                       {"version: 1\ncurrency: \xff\xfe\n", "not valid UTF-8"},
                                       {"- a\n- b\n", "expected a mapping"},
                                       {std::string(kMaxPolicyBytes + 1, '#'), "bytes, expected at most"}}) {
    ParsedPolicy parsed = ParsePolicy(b.text);
    ASSERT_FALSE(parsed.ok());
    EXPECT_THAT(parsed.errors[0].message, HasSubstr(b.mentions)) << parsed.errors[0].message;
  }
}

TEST(PolicyParser, AMegabyteNameIsRejectedWithAShortMessage) {
  const std::string name(1 << 20, 'n');
  ParsedPolicy parsed = ParsePolicy("version: 1\nteams:\n  - name: " + name + "\n");
  ASSERT_EQ(parsed.errors.size(), 1u);
  EXPECT_EQ(parsed.errors[0].line, 3);
  EXPECT_EQ(parsed.errors[0].field, "teams[0].name");
  EXPECT_LT(parsed.errors[0].message.size(), 300u);
}

// The example docs/policy.md shows (and make demo applies) stays valid.
TEST(PolicyParser, TheDocumentedOpenbExampleIsValid) {
  const std::string example = fleetcap::testing::SourcePath("docs/examples/openb-policy.yaml");
  std::ifstream in(example);
  ASSERT_TRUE(in.good()) << example;
  std::stringstream text;
  text << in.rdbuf();
  ParsedPolicy parsed = ParsePolicy(text.str());
  ASSERT_TRUE(parsed.ok()) << FormatPolicyErrors(example, parsed.errors);
  EXPECT_EQ(parsed.document.teams.size(), 14u);
  EXPECT_EQ(Subtree(parsed.document, "training").size(), 7u);
  EXPECT_EQ(parsed.document.flavors.size(), 7u);
  std::set<std::string> models;
  for (const auto& p : parsed.document.prices) models.insert(p.model);
  EXPECT_EQ(models, (std::set<std::string>{"A10", "G2", "G3", "P100", "T4", "V100M16", "V100M32"}));
}

// yaml-cpp keeps the first of two equal keys without a word, so a reader of the
// document and the server would disagree on what it says: each repeat is an
// error naming both lines.
TEST(PolicyParser, DuplicateKeysAreErrorsNamingBothLines) {
  const std::vector<Case> cases = {
      {"repeated price", "    from: 2026-02-01T00:00:00Z\n    per_device_hour: \"0.40\"\n",
       "    from: 2026-02-01T00:00:00Z\n    per_device_hour: \"0.40\"\n    per_device_hour: \"0.01\"\n", 36,
       "prices[1].per_device_hour", "\"per_device_hour\" appears at lines 35 and 36"},
      {"repeated top-level section", "currency: USD\n", "currency: USD\nversion: 1\n", 3, "version",
       "\"version\" appears at lines 1 and 3"},
      {"repeated key in a flow mapping", "  - name: speech\n    parent: research\n",
       "  - {name: speech, parent: research, name: ads}\n", 10, "teams[2].name", "\"name\" appears at lines 10 and 10"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string text = kTestPolicy;
    ASSERT_THAT(text, HasSubstr(c.from)) << "case does not apply: " << c.from;
    ParsedPolicy parsed = ParsePolicy(absl::StrReplaceAll(text, {{c.from, c.to}}));
    bool found = false;
    for (const auto& e : parsed.errors) {
      if (e.field == c.field && e.line == c.line && e.message.find(c.mentions) != std::string::npos) found = true;
    }
    EXPECT_TRUE(found) << "wanted line " << c.line << " field " << c.field << " mentioning " << c.mentions << "; got:\n"
                       << FormatPolicyErrors("policy.yaml", parsed.errors);
  }
}

// Quantities are int64 milli-devices; a sum of them that does not fit is an
// error naming the field, never a wrapped (negative) total that slips past a check.
TEST(PolicyParser, GuaranteesSummingPastInt64AreAnErrorNotAWrap) {
  const std::string text = R"(version: 1
teams:
  - name: a
  - name: b
flavors:
  - name: big
    model: T4
    capacity: 9223372036854775
allocation:
  - team: a
    flavor: big
    guarantee: 9000000000000000
  - team: b
    flavor: big
    guarantee: 9000000000000000
)";
  ParsedPolicy parsed = ParsePolicy(text);
  ASSERT_FALSE(parsed.ok()) << "two guarantees of 9e15 devices passed against a capacity of 9.2e15";
  EXPECT_EQ(parsed.errors[0].line, 15);
  EXPECT_EQ(parsed.errors[0].field, "allocation[1].guarantee");
  EXPECT_THAT(parsed.errors[0].message, HasSubstr("sum to more than")) << parsed.errors[0].message;
}

TEST(PolicyParser, DeclaredDemandOnAnAllocationRule) {
  const std::string edited =
      absl::StrReplaceAll(kTestPolicy, {{"    weight: 3\n", "    weight: 3\n    demand: 12.5\n"}});
  ParsedPolicy parsed = ParsePolicy(edited);
  ASSERT_TRUE(parsed.ok()) << parsed.errors[0].message;
  EXPECT_EQ(parsed.document.allocation[1].demand_milli, 12500);
  EXPECT_FALSE(parsed.document.allocation[0].demand_milli.has_value());
}

TEST(PolicyParser, MinimalDocumentTakesDefaults) {
  ParsedPolicy parsed = ParsePolicy("version: 1\n");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed.document.currency, "USD");
  EXPECT_EQ(parsed.document.attribution.basis, "request");
  EXPECT_EQ(parsed.document.attribution.idle, "share");
}

}  // namespace
}  // namespace fleetcap::policy
