#include "policy/team_resolution.h"

#include <gtest/gtest.h>

#include "policy/policy_parser.h"

namespace fleetcap::policy {
namespace {

constexpr const char* kPolicy = R"(version: 1
teams:
  - name: vision
  - name: speech
  - name: platform
  - name: shop
namespaces:
  - pattern: "cv-*"
    team: speech
  - namespace: cv-train
    team: vision
    cluster: "eu-*"
  - namespace: cv-train
    team: platform
team_label_keys: [fleetcap.io/team, owner]
trusted_pods:
  - namespace: "shared-*"
    team_label: true
  - cluster: lab
    gpu_share: true
)";

TeamResolver Resolver(const char* text = kPolicy) {
  ParsedPolicy parsed = ParsePolicy(text);
  EXPECT_TRUE(parsed.ok()) << FormatPolicyErrors("", parsed.errors);
  return TeamResolver(std::make_shared<const PolicyDocument>(parsed.document));
}

TEST(TeamResolution, AnExactNamespaceRuleWinsOverAPatternAndTheFirstMatchingClusterWins) {
  const TeamResolver r = Resolver();
  EXPECT_EQ(r.TeamOf({"eu-1", "cv-train", ""}, nullptr), "vision");
  EXPECT_EQ(r.TeamOf({"us-1", "cv-train", ""}, nullptr), "platform");
  EXPECT_EQ(r.TeamOf({"us-1", "cv-infer", ""}, nullptr), "speech");
}

TEST(TeamResolution, APodLabelIsIgnoredWhereThePolicyDoesNotTrustIt) {
  const TeamResolver r = Resolver();
  EXPECT_EQ(r.TeamOf({"eu-1", "cv-train", "shop"}, nullptr), "vision");
  EXPECT_EQ(r.TeamOf({"eu-1", "research", "shop"}, nullptr), "unassigned");
}

TEST(TeamResolution, ATrustedPodLabelWinsIfItNamesATeamOfThePolicy) {
  const TeamResolver r = Resolver();
  EXPECT_EQ(r.TeamOf({"eu-1", "shared-gpu", "shop"}, nullptr), "shop");
  EXPECT_EQ(r.TeamOf({"eu-1", "shared-gpu", "no-such-team"}, nullptr), "unassigned");
  EXPECT_EQ(r.TeamOf({"eu-1", "shared-gpu", ""}, nullptr), "unassigned");
}

TEST(TeamResolution, NamespaceLabelsThenAnnotationsUnderTheListedKeysFillWhatRulesLeave) {
  const TeamResolver r = Resolver();
  NamespaceEvidence ns;
  ns.annotations = {{"owner", "speech"}};
  EXPECT_EQ(r.TeamOf({"eu-1", "research", ""}, &ns), "speech");
  ns.labels = {{"fleetcap.io/team", "shop"}};
  EXPECT_EQ(r.TeamOf({"eu-1", "research", ""}, &ns), "shop");
  ns.labels = {{"fleetcap.io/team", "invented"}, {"unlisted-key", "vision"}};
  EXPECT_EQ(r.TeamOf({"eu-1", "research", ""}, &ns), "speech");
  // A mapped namespace keeps its mapping whatever its labels say.
  ns.labels = {{"fleetcap.io/team", "shop"}};
  EXPECT_EQ(r.TeamOf({"eu-1", "cv-train", ""}, &ns), "vision");
}

TEST(TeamResolution, GpuShareAnnotationsAreTrustedOnlyWhereListed) {
  const TeamResolver r = Resolver();
  EXPECT_TRUE(r.TrustsGpuShare("lab", "anything"));
  EXPECT_FALSE(r.TrustsGpuShare("eu-1", "shared-gpu"));
  EXPECT_TRUE(r.TrustsTeamLabel("eu-1", "shared-gpu"));
  EXPECT_FALSE(r.TrustsTeamLabel("lab", "anything"));
}

TEST(TeamResolution, WithoutAPolicyEveryPodIsUnassignedAndNothingIsTrusted) {
  const TeamResolver r;
  NamespaceEvidence ns;
  ns.labels = {{"fleetcap.io/team", "vision"}};
  EXPECT_EQ(r.TeamOf({"eu-1", "cv-train", "vision"}, &ns), "unassigned");
  EXPECT_FALSE(r.TrustsGpuShare("eu-1", "cv-train"));
  EXPECT_FALSE(r.TrustsTeamLabel("eu-1", "cv-train"));
}

}  // namespace
}  // namespace fleetcap::policy
