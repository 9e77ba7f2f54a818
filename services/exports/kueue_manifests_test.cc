#include "services/exports/kueue_manifests.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "services/exports/scheduler_test_policy.h"
#include "tests/support/build_paths.h"
#include "tests/support/openapi_schema.h"
#include "tests/support/status_matchers.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::UnorderedElementsAre;
using namespace ::fleetcap::exports::testing;  // NOLINT: the shared policy and rows

std::vector<YAML::Node> Documents(const std::string& yaml) {
  std::vector<YAML::Node> docs = YAML::LoadAll(yaml);
  docs.erase(std::remove_if(docs.begin(), docs.end(), [](const YAML::Node& d) { return d.IsNull(); }), docs.end());
  return docs;
}

YAML::Node Find(const std::vector<YAML::Node>& docs, const std::string& kind, const std::string& name) {
  for (const YAML::Node& d : docs) {
    if (d["kind"].Scalar() == kind && d["metadata"]["name"].Scalar() == name) return d;
  }
  ADD_FAILURE() << "no " << kind << " " << name;
  return YAML::Node();
}

// The policy's flavors plus `count` more of `model` (f00, f01, ...), all in
// one policy with the team `solo` under the org `org`.
policy::PolicyDocument PolicyWithFlavors(int count, const std::string& model) {
  policy::PolicyDocument policy;
  policy.teams.push_back({"org", "", "org", 1, "", "", 0, {}});
  policy.teams.push_back({"solo", "org", "team", 1, "", "", 0, {}});
  for (int i = 0; i < count; ++i) {
    policy::Flavor f;
    f.name = absl::StrCat("f", i < 10 ? "0" : "", i);
    f.model = model;
    f.capacity_milli = 1000;
    policy.flavors.push_back(f);
  }
  return policy;
}

std::vector<allocation::Recommendation> RowsOnEveryFlavor(const policy::PolicyDocument& policy,
                                                          const std::string& team) {
  std::vector<allocation::Recommendation> rows;
  for (const policy::Flavor& f : policy.flavors)
    rows.push_back({team, f.name, 1000, 0, 1000, std::nullopt, 0, "demand", ""});
  return rows;
}

TEST(KueueManifests, TheTestPolicyParses) {
  policy::ParsedPolicy parsed = policy::ParsePolicy(kSchedulerTestPolicy);
  ASSERT_TRUE(parsed.ok()) << parsed.errors.front().field << ": " << parsed.errors.front().message;
}

TEST(KueueManifests, MatchesTheGoldenFileForASmallOrgTree) {
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  const std::string golden_file = fleetcap::testing::SourcePath("services/exports/testdata/kueue_small_tree.yaml");
  std::ifstream golden(golden_file);
  ASSERT_TRUE(golden) << "missing " << golden_file;
  std::stringstream expected;
  expected << golden.rdbuf();
  EXPECT_EQ(*yaml, expected.str());
}

TEST(KueueManifests, EveryManifestValidatesAgainstTheServedV1beta2Schema) {
  KueueOptions options;
  options.node_labels["a100"] = {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"},
                                 {"cloud.google.com/gke-nodepool", "a100-pool"}};
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  const std::map<std::string, std::string> crd_of = {{"ResourceFlavor", "kueue.x-k8s.io_resourceflavors.yaml"},
                                                     {"Cohort", "kueue.x-k8s.io_cohorts.yaml"},
                                                     {"ClusterQueue", "kueue.x-k8s.io_clusterqueues.yaml"}};
  std::map<std::string, int> kinds;
  const std::regex dns_label("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  for (const YAML::Node& doc : Documents(*yaml)) {
    const std::string kind = doc["kind"].Scalar();
    ASSERT_EQ(crd_of.count(kind), 1u) << kind;
    EXPECT_EQ(doc["apiVersion"].Scalar(), "kueue.x-k8s.io/v1beta2");
    absl::StatusOr<YAML::Node> schema =
        fleetcap::testing::CrdSchema(fleetcap::testing::SharedDataPath("kueue-crds/") + crd_of.at(kind), "v1beta2");
    ASSERT_THAT(schema, IsOk());
    const std::string name = doc["metadata"]["name"].Scalar();
    EXPECT_THAT(fleetcap::testing::SchemaProblems(*schema, doc), IsEmpty()) << kind << " " << name;
    EXPECT_TRUE(std::regex_match(name, dns_label) && name.size() <= 63) << name;
    ++kinds[kind];
  }
  EXPECT_EQ(kinds["ResourceFlavor"], 3);
  EXPECT_EQ(kinds["Cohort"], 2);  // the root and research
  EXPECT_EQ(kinds["ClusterQueue"], 3);
}

// The check above is only worth something if the real schema refuses what
// Kueue would: a v1beta1 field name, a quantity that is not one, a bad name.
TEST(KueueManifests, TheSchemaCheckRefusesAClusterQueueKueueWouldRefuse) {
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  absl::StatusOr<YAML::Node> schema = fleetcap::testing::CrdSchema(
      fleetcap::testing::SharedDataPath("kueue-crds/kueue.x-k8s.io_clusterqueues.yaml"), "v1beta2");
  ASSERT_THAT(schema, IsOk());
  YAML::Node queue = YAML::Clone(Find(Documents(*yaml), "ClusterQueue", "vision"));
  queue["spec"]["cohort"] = "research";
  queue["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "9.5 GPUs";
  queue["spec"]["resourceGroups"][0]["flavors"][1]["name"] = "T4";
  EXPECT_THAT(
      fleetcap::testing::SchemaProblems(*schema, queue),
      UnorderedElementsAre(HasSubstr(".spec.cohort: unknown field"),
                           HasSubstr(".spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: \"9.5 GPUs\""),
                           HasSubstr(".spec.resourceGroups[0].flavors[1].name: \"T4\" does not match")));
}

// The CRD's CEL rules (x-kubernetes-validations), which the schema check
// skips, held on the generated ClusterQueues.
TEST(KueueManifests, ClusterQueuesKeepTheCrdRulesTheSchemaCheckSkips) {
  for (const std::string& root : {std::string("fleetcap"), std::string("")}) {
    KueueOptions options;
    options.root_cohort = root;
    std::vector<allocation::Recommendation> rows = SchedulerTestRows();
    rows.back().lending_limit_milli = rows.back().guarantee_milli;  // ads may lend all: expressible without a cohort
    absl::StatusOr<std::string> yaml = KueueManifests(rows, SchedulerTestPolicy(), options);
    ASSERT_THAT(yaml, IsOk()) << root;
    for (const YAML::Node& doc : Documents(*yaml)) {
      if (doc["kind"].Scalar() != "ClusterQueue") continue;
      const YAML::Node spec = doc["spec"];
      for (const YAML::Node& group : spec["resourceGroups"]) {
        for (const YAML::Node& flavor : group["flavors"]) {
          // "flavors must have the same number of resources as the coveredResources"
          EXPECT_EQ(flavor["resources"].size(), group["coveredResources"].size());
          for (const YAML::Node& r : flavor["resources"]) {
            // "borrowingLimit must be nil when cohort is empty"
            if (!spec["cohortName"]) {
              EXPECT_FALSE(r["borrowingLimit"]) << doc["metadata"]["name"];
              EXPECT_FALSE(r["lendingLimit"]) << doc["metadata"]["name"];
            }
          }
        }
      }
    }
  }
}

TEST(KueueManifests, QuotasAreTheRecommendationsAsExactQuantities) {
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  std::vector<YAML::Node> docs = Documents(*yaml);
  YAML::Node vision = Find(docs, "ClusterQueue", "vision");
  EXPECT_EQ(vision["spec"]["cohortName"].Scalar(), "research");
  EXPECT_EQ(vision["spec"]["fairSharing"]["weight"].Scalar(), "2");
  ASSERT_EQ(vision["spec"]["resourceGroups"].size(), 1u);
  YAML::Node gpu = vision["spec"]["resourceGroups"][0];
  EXPECT_EQ(gpu["coveredResources"][0].Scalar(), "nvidia.com/gpu");
  YAML::Node a100 = gpu["flavors"][0]["resources"][0];
  EXPECT_EQ(gpu["flavors"][0]["name"].Scalar(), "a100");
  EXPECT_EQ(a100["nominalQuota"].Scalar(), "9500m");
  EXPECT_EQ(a100["borrowingLimit"].Scalar(), "2500m");  // 9.5 + 2.5 = guarantee 8 + borrowing limit 4
  EXPECT_EQ(a100["lendingLimit"].Scalar(), "3500m");    // 9.5 - 3.5 = the 8 - 2 it may not lend
  YAML::Node t4 = gpu["flavors"][1]["resources"][0];
  EXPECT_EQ(gpu["flavors"][1]["name"].Scalar(), "t4");
  EXPECT_EQ(t4["nominalQuota"].Scalar(), "1500m");
  EXPECT_FALSE(t4["borrowingLimit"]);  // unlimited
  EXPECT_FALSE(t4["lendingLimit"]);    // may lend all

  YAML::Node speech = Find(docs, "ClusterQueue", "speech");
  ASSERT_EQ(speech["spec"]["resourceGroups"].size(), 2u);
  EXPECT_EQ(speech["spec"]["resourceGroups"][0]["coveredResources"][0].Scalar(), "google.com/tpu");
  EXPECT_EQ(speech["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"].Scalar(), "2");
  EXPECT_EQ(speech["spec"]["resourceGroups"][1]["flavors"][0]["resources"][0]["nominalQuota"].Scalar(), "4");
  EXPECT_FALSE(speech["spec"]["namespaceSelector"]);  // only a pattern maps namespaces to speech

  EXPECT_EQ(Find(docs, "ClusterQueue", "ads")["spec"]["cohortName"].Scalar(), "fleetcap");
  EXPECT_EQ(Find(docs, "Cohort", "research")["spec"]["parentName"].Scalar(), "fleetcap");
  EXPECT_EQ(Find(docs, "Cohort", "research")["spec"]["fairSharing"]["weight"].Scalar(), "3");
}

// What the API and the dashboard show as Kueue's limits (KueueLimitsOf) is,
// for every team and flavor, what the manifests write: the same quantities,
// present and absent alike.
TEST(KueueManifests, TheLimitsShownAreTheLimitsTheManifestsWrite) {
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  std::vector<YAML::Node> docs = Documents(*yaml);
  int compared = 0;
  for (const allocation::Recommendation& row : SchedulerTestRows()) {
    SCOPED_TRACE(row.team + " on " + row.flavor);
    const YAML::Node queue = Find(docs, "ClusterQueue", row.team);
    YAML::Node resource;
    for (const YAML::Node& group : queue["spec"]["resourceGroups"]) {
      for (const YAML::Node& flavor : group["flavors"]) {
        if (flavor["name"].Scalar() == row.flavor) resource = flavor["resources"][0];
      }
    }
    ASSERT_TRUE(resource.IsDefined() && resource.IsMap());
    const KueueLimits shown = KueueLimitsOf(row);
    EXPECT_EQ(shown.borrowing_limit.has_value(), static_cast<bool>(resource["borrowingLimit"]));
    if (shown.borrowing_limit) {
      EXPECT_EQ(*shown.borrowing_limit, resource["borrowingLimit"].Scalar());
    }
    EXPECT_EQ(shown.lending_limit.has_value(), static_cast<bool>(resource["lendingLimit"]));
    if (shown.lending_limit) {
      EXPECT_EQ(*shown.lending_limit, resource["lendingLimit"].Scalar());
    }
    ++compared;
  }
  EXPECT_EQ(compared, 5);
  // vision on a100: guarantee 8, borrowing limit 4, lending limit 2, recommended 9.5.
  EXPECT_EQ(KueueLimitsOf(SchedulerTestRows()[0]).borrowing_limit, "2500m");
  EXPECT_EQ(KueueLimitsOf(SchedulerTestRows()[0]).lending_limit, "3500m");
}

// Per flavor, the capacity less every recommendation and what lending
// limits withhold: a100 16 - 9.5 - 4, t4 32 - 1.5 - 10, v5p 8 - 2.
TEST(KueueManifests, TheRootCohortHoldsTheCapacityRecommendedToNoTeam) {
  std::vector<allocation::Recommendation> rows = SchedulerTestRows();
  absl::StatusOr<std::string> yaml = KueueManifests(rows, SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  YAML::Node groups = Find(Documents(*yaml), "Cohort", "fleetcap")["spec"]["resourceGroups"];
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0]["coveredResources"][0].Scalar(), "google.com/tpu");
  EXPECT_EQ(groups[0]["flavors"][0]["resources"][0]["nominalQuota"].Scalar(), "6");
  EXPECT_EQ(groups[1]["flavors"][0]["name"].Scalar(), "a100");
  EXPECT_EQ(groups[1]["flavors"][0]["resources"][0]["nominalQuota"].Scalar(), "2500m");
  EXPECT_EQ(groups[1]["flavors"][1]["resources"][0]["nominalQuota"].Scalar(), "20500m");

  // speech may lend 1 of a 5 guarantee on t4 and uses 0.5: 3.5 stays withheld.
  rows.push_back({"speech", "t4", 500, 5000, 500, std::nullopt, 1000, "demand", ""});
  yaml = KueueManifests(rows, SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  groups = Find(Documents(*yaml), "Cohort", "fleetcap")["spec"]["resourceGroups"];
  EXPECT_EQ(groups[1]["flavors"][1]["resources"][0]["nominalQuota"].Scalar(), "16500m");  // 20.5 - 0.5 - 3.5

  // More recommended than the policy's capacity (a what-if capacity): none spare, never negative.
  rows.push_back({"vision", "v5p", 9000, 0, 9000, std::nullopt, 0, "demand", ""});
  yaml = KueueManifests(rows, SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  groups = Find(Documents(*yaml), "Cohort", "fleetcap")["spec"]["resourceGroups"];
  EXPECT_EQ(groups[0]["flavors"][0]["resources"][0]["nominalQuota"].Scalar(), "0");

  KueueOptions options;
  options.spare_on_root_cohort = false;
  yaml = KueueManifests(rows, SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  EXPECT_EQ(Find(Documents(*yaml), "Cohort", "fleetcap")["spec"].size(), 0u);
}

// A team's view leaves out the fleet's objects: the root Cohort's quota is
// the fleet's capacity less the recommendations, the org Cohorts hold others.
TEST(KueueManifests, QueuesOnlyIsTheClusterQueuesAndNothingAboveThem) {
  std::vector<allocation::Recommendation> vision_rows;
  for (const allocation::Recommendation& row : SchedulerTestRows()) {
    if (row.team == "vision") vision_rows.push_back(row);
  }
  ASSERT_FALSE(vision_rows.empty());
  KueueOptions options;
  options.queues_only = true;
  absl::StatusOr<std::string> yaml = KueueManifests(vision_rows, SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  const std::vector<YAML::Node> docs = Documents(*yaml);
  ASSERT_EQ(docs.size(), 1u) << *yaml;
  EXPECT_EQ(docs[0]["kind"].Scalar(), "ClusterQueue");
  EXPECT_EQ(docs[0]["metadata"]["name"].Scalar(), "vision");
  // Identical to the same queue in the fleet's export.
  absl::StatusOr<std::string> fleet = KueueManifests(vision_rows, SchedulerTestPolicy());
  ASSERT_THAT(fleet, IsOk());
  EXPECT_EQ(YAML::Dump(docs[0]), YAML::Dump(Find(Documents(*fleet), "ClusterQueue", "vision")));
}

TEST(KueueManifests, SelectsTheTeamsExactNamespaces) {
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  YAML::Node expr =
      Find(Documents(*yaml), "ClusterQueue", "vision")["spec"]["namespaceSelector"]["matchExpressions"][0];
  EXPECT_EQ(expr["key"].Scalar(), "kubernetes.io/metadata.name");
  EXPECT_EQ(expr["operator"].Scalar(), "In");
  EXPECT_EQ(expr["values"].as<std::vector<std::string>>(), (std::vector<std::string>{"cv-serve", "cv-train"}));
}

TEST(KueueManifests, ThePoolLabelSelectsAFlavorsNodes) {
  KueueOptions options;
  options.pool_label = "cloud.google.com/gke-nodepool";
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  std::vector<YAML::Node> docs = Documents(*yaml);
  EXPECT_EQ(Find(docs, "ResourceFlavor", "a100")["spec"]["nodeLabels"]["cloud.google.com/gke-nodepool"].Scalar(),
            "a100-pool");
  EXPECT_FALSE(Find(docs, "ResourceFlavor", "v5p")["spec"]["nodeLabels"]);  // v5p has no pool
  options.pool_label = "not a label";
  EXPECT_THAT(KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pool label")));
}

TEST(KueueManifests, AFlavorSelectsTheNodesByTheLabelsTheInventorySawOnThem) {
  KueueOptions options;
  options.node_labels["a100"] = {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}};
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  std::vector<YAML::Node> docs = Documents(*yaml);
  YAML::Node a100 = Find(docs, "ResourceFlavor", "a100")["spec"]["nodeLabels"];
  ASSERT_TRUE(a100.IsMap()) << *yaml;
  EXPECT_EQ(a100.size(), 1u);
  EXPECT_EQ(a100["nvidia.com/gpu.product"].Scalar(), "NVIDIA-A100-SXM4-40GB");
  EXPECT_THAT(*yaml, HasSubstr("nodeLabels:\n    nvidia.com/gpu.product: \"NVIDIA-A100-SXM4-40GB\""));
  // The pool label is added over them.
  options.pool_label = "cloud.google.com/gke-nodepool";
  yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  a100 = Find(Documents(*yaml), "ResourceFlavor", "a100")["spec"]["nodeLabels"];
  EXPECT_EQ(a100.size(), 2u);
  EXPECT_EQ(a100["nvidia.com/gpu.product"].Scalar(), "NVIDIA-A100-SXM4-40GB");
  EXPECT_EQ(a100["cloud.google.com/gke-nodepool"].Scalar(), "a100-pool");
  // A label no node could carry is an error naming the flavor.
  options.node_labels["t4"] = {{"nvidia.com/gpu.product", "Tesla T4"}};
  EXPECT_THAT(KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flavor t4: node label")));
}

TEST(KueueManifests, AFlavorWithNoNodeLabelKnownSaysSo) {
  KueueOptions options;
  options.node_labels["a100"] = {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}};
  absl::StatusOr<std::string> yaml = KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  EXPECT_THAT(*yaml, HasSubstr("# No node label is known for flavor t4 (model T4, pool t4-pool): this "
                               "ResourceFlavor matches every node.\napiVersion: kueue.x-k8s.io/v1beta2\n"
                               "kind: ResourceFlavor\n"));
  EXPECT_THAT(*yaml, HasSubstr("# No node label is known for flavor v5p (model tpu-v5p): "));
  EXPECT_THAT(*yaml, Not(HasSubstr("flavor a100 (")));
  std::vector<YAML::Node> docs = Documents(*yaml);
  EXPECT_FALSE(Find(docs, "ResourceFlavor", "t4")["spec"]["nodeLabels"]);
  EXPECT_EQ(Find(docs, "ResourceFlavor", "t4")["spec"].size(), 0u);
}

TEST(KueueManifests, TheOutputDoesNotDependOnTheOrderOfTheRows) {
  std::vector<allocation::Recommendation> rows = SchedulerTestRows();
  absl::StatusOr<std::string> first = KueueManifests(rows, SchedulerTestPolicy());
  std::reverse(rows.begin(), rows.end());
  absl::StatusOr<std::string> second = KueueManifests(rows, SchedulerTestPolicy());
  ASSERT_THAT(first, IsOk());
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(*first, *second);
}

TEST(KueueManifests, WithoutARootCohortALimitOnARootTeamIsAnErrorNamingTeamAndFlavor) {
  KueueOptions options;
  options.root_cohort = "";
  std::vector<allocation::Recommendation> rows = SchedulerTestRows();
  rows.back().borrowing_limit_milli = 2000;  // ads, t4
  EXPECT_THAT(KueueManifests(rows, SchedulerTestPolicy(), options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("team ads, flavor t4"), HasSubstr("borrowing limit"), HasSubstr("cohort"))));
  rows.back().borrowing_limit_milli.reset();
  rows.back().lending_limit_milli = 4000;  // keeps 6 of its 10
  EXPECT_THAT(KueueManifests(rows, SchedulerTestPolicy(), options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("team ads, flavor t4"), HasSubstr("lending limit"), HasSubstr("cohort"))));
  rows.back().lending_limit_milli = 10000;
  absl::StatusOr<std::string> yaml = KueueManifests(rows, SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  EXPECT_FALSE(Find(Documents(*yaml), "ClusterQueue", "ads")["spec"]["cohortName"]);
}

TEST(KueueManifests, SeventeenResourcesAreAnErrorNamingTheTeamAndFlavor) {
  policy::PolicyDocument policy = PolicyWithFlavors(17, "A100");
  KueueOptions options;
  for (const policy::Flavor& f : policy.flavors) options.resources[f.name] = absl::StrCat("example.com/", f.name);
  EXPECT_THAT(KueueManifests(RowsOnEveryFlavor(policy, "solo"), policy, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("team solo, flavor f16"), HasSubstr("resource group 17"), HasSubstr("16"))));
  policy.flavors.pop_back();
  EXPECT_THAT(KueueManifests(RowsOnEveryFlavor(policy, "solo"), policy, options), IsOk());
}

TEST(KueueManifests, SixtyFiveFlavorsOfOneResourceAreAnErrorNamingTheTeamAndFlavor) {
  policy::PolicyDocument policy = PolicyWithFlavors(65, "A100");
  EXPECT_THAT(KueueManifests(RowsOnEveryFlavor(policy, "solo"), policy),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("team solo, flavor f64"), HasSubstr("flavor 65"), HasSubstr("64"))));
  policy.flavors.pop_back();
  absl::StatusOr<std::string> yaml = KueueManifests(RowsOnEveryFlavor(policy, "solo"), policy);
  ASSERT_THAT(yaml, IsOk());
  absl::StatusOr<YAML::Node> schema = fleetcap::testing::CrdSchema(
      fleetcap::testing::SharedDataPath("kueue-crds/kueue.x-k8s.io_clusterqueues.yaml"), "v1beta2");
  ASSERT_THAT(schema, IsOk());
  EXPECT_THAT(fleetcap::testing::SchemaProblems(*schema, Find(Documents(*yaml), "ClusterQueue", "solo")), IsEmpty());
}

KueueClusterQueue OneGroupQueue() {
  KueueClusterQueue queue;
  queue.team = "vision";
  queue.name = "vision";
  queue.cohort = "research";
  queue.resource_groups.push_back(
      {{"nvidia.com/gpu", "cpu"}, {{"a100", "a100", {{"nvidia.com/gpu", 1000, {}, {}}, {"cpu", 8000, {}, {}}}}}});
  return queue;
}

TEST(CheckKueueRules, EveryFlavorListsTheGroupsCoveredResourcesInOrder) {
  KueueClusterQueue queue = OneGroupQueue();
  EXPECT_THAT(CheckKueueRules(queue), IsOk());
  std::swap(queue.resource_groups[0].flavors[0].resources[0], queue.resource_groups[0].flavors[0].resources[1]);
  EXPECT_THAT(CheckKueueRules(queue), StatusIs(absl::StatusCode::kInvalidArgument,
                                               AllOf(HasSubstr("team vision, flavor a100"), HasSubstr("in order"))));
  queue = OneGroupQueue();
  queue.resource_groups[0].flavors[0].resources.pop_back();
  EXPECT_THAT(CheckKueueRules(queue),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("lists resources [nvidia.com/gpu]")));
}

TEST(CheckKueueRules, AResourceOrFlavorInTwoGroupsIsAnError) {
  KueueClusterQueue queue = OneGroupQueue();
  queue.resource_groups.push_back(queue.resource_groups[0]);
  EXPECT_THAT(CheckKueueRules(queue),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("covered by two resource groups")));
  queue.resource_groups[1].covered_resources = {"google.com/tpu"};
  queue.resource_groups[1].flavors[0].resources = {{"google.com/tpu", 1000, {}, {}}};
  EXPECT_THAT(CheckKueueRules(queue),
              StatusIs(absl::StatusCode::kInvalidArgument, AllOf(HasSubstr("flavor a100"), HasSubstr("two resource"))));
}

TEST(CheckKueueRules, ALendingLimitAboveTheNominalQuotaIsAnError) {
  KueueClusterQueue queue = OneGroupQueue();
  queue.resource_groups[0].flavors[0].resources[0].lending_limit_milli = 1001;
  EXPECT_THAT(CheckKueueRules(queue),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("team vision, flavor a100"), HasSubstr("above the nominal quota 1"))));
}

TEST(KueueManifests, RefusesRowsThePolicyCannotPlaceNamingTeamAndFlavor) {
  const policy::PolicyDocument policy = SchedulerTestPolicy();
  auto with = [](allocation::Recommendation row) { return std::vector<allocation::Recommendation>{row}; };
  EXPECT_THAT(
      KueueManifests(with({"nobody", "a100", 0, 0, 1000, {}, 0, "demand", ""}), policy),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("team nobody on flavor a100: the policy has no team")));
  EXPECT_THAT(KueueManifests(with({"research", "a100", 0, 0, 1000, {}, 0, "demand", ""}), policy),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("research has teams below it")));
  EXPECT_THAT(KueueManifests(with({"vision", "h100", 0, 0, 1000, {}, 0, "demand", ""}), policy),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("the policy has no flavor h100")));
  EXPECT_THAT(KueueManifests(with({"vision", "a100", 0, 0, -1, {}, 0, "demand", ""}), policy),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("team vision on flavor a100"), HasSubstr("recommended_milli is -1"))));
  EXPECT_THAT(KueueManifests(with({"vision", "a100", 0, 0, 0, -5, 0, "demand", ""}), policy),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("borrowing_limit_milli is -5")));
  EXPECT_THAT(KueueManifests(with({"vision", "a100", 0, 1000, 5000, 2000, 0, "demand", ""}), policy),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("above guarantee_milli 1000 + borrowing_limit")));
  EXPECT_THAT(KueueManifests(with({"vision", "a100", 0, 0, 1'000'000'000'001, {}, 0, "demand", ""}), policy),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("recommended_milli")));
  std::vector<allocation::Recommendation> twice = {{"vision", "a100", 0, 0, 1000, {}, 0, "demand", ""},
                                                   {"vision", "a100", 0, 0, 2000, {}, 0, "demand", ""}};
  EXPECT_THAT(KueueManifests(twice, policy),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("team vision on flavor a100: given twice")));
}

TEST(KueueManifests, NamesThatCollideAsKubernetesNamesAreAnError) {
  policy::PolicyDocument policy = SchedulerTestPolicy();
  policy.teams.push_back({"Vision", "research", "team", 1, "", "", 0, {}});
  EXPECT_THAT(KueueManifests(SchedulerTestRows(), policy),
              StatusIs(absl::StatusCode::kInvalidArgument, AllOf(HasSubstr("Vision"), HasSubstr("vision"))));
  policy = SchedulerTestPolicy();
  policy.teams.push_back({"fleetcap", "", "team", 1, "", "", 0, {}});
  EXPECT_THAT(
      KueueManifests(SchedulerTestRows(), policy),
      StatusIs(absl::StatusCode::kInvalidArgument, AllOf(HasSubstr("team fleetcap"), HasSubstr("root cohort"))));
  KueueOptions options;
  options.root_cohort = "Fleet_Root";
  EXPECT_THAT(KueueManifests(SchedulerTestRows(), SchedulerTestPolicy(), options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("root cohort \"Fleet_Root\"")));
}

TEST(KueueManifests, AnEmptySetIsOnlyTheCohorts) {
  absl::StatusOr<std::string> yaml = KueueManifests({}, SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  std::vector<YAML::Node> docs = Documents(*yaml);
  std::vector<std::string> kinds;
  for (const YAML::Node& d : docs) kinds.push_back(d["kind"].Scalar() + "/" + d["metadata"]["name"].Scalar());
  EXPECT_THAT(kinds, ElementsAre("Cohort/fleetcap", "Cohort/research"));
}

}  // namespace
}  // namespace fleetcap::exports
