// The exports over the demo's policy (docs/examples/openb-policy.yaml: two
// orgs, twelve teams, seven flavors, guarantees with borrowing and lending
// limits), solved by the real allocation engine from a demand derived
// here: every Kueue manifest validates against the CRD schemas, the
// quantities keep what the recommendations say, and the quotas of the demo's
// whole-GPU flavors are whole devices.

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "optimizer/allocation/offline_solver.h"
#include "policy/policy_parser.h"
#include "services/exports/kueue_manifests.h"
#include "services/exports/volcano_manifests.h"
#include "tests/support/build_paths.h"
#include "tests/support/openapi_schema.h"
#include "tests/support/status_matchers.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Demand for every leaf team on every flavor, a different fraction of the
// flavor's capacity each (1/37 to 11/37), so that some flavors are scarce,
// some ample, and quantities are not whole devices.
std::string DerivedDemand(const policy::PolicyDocument& policy) {
  std::string yaml = "demand:\n";
  int i = 0;
  for (const policy::Team& team : policy.teams) {
    if (team.parent.empty()) continue;
    int j = 0;
    for (const policy::Flavor& flavor : policy.flavors) {
      int64_t milli = flavor.capacity_milli * ((i * 7 + j * 3) % 11 + 1) / 37;
      absl::StrAppend(&yaml, "  - {team: ", team.name, ", flavor: ", flavor.name,
                      absl::StrFormat(", devices: %d.%03d}\n", milli / 1000, milli % 1000));
      ++j;
    }
    ++i;
  }
  return yaml;
}

struct Solved {
  policy::PolicyDocument policy;
  std::vector<allocation::Recommendation> rows;
};

Solved SolveDemo() {
  Solved solved;
  std::string text = ReadFile(fleetcap::testing::SourcePath("docs/examples/openb-policy.yaml"));
  policy::ParsedPolicy parsed = policy::ParsePolicy(text);
  EXPECT_TRUE(parsed.ok());
  solved.policy = parsed.document;
  absl::StatusOr<std::vector<allocation::Recommendation>> recs =
      allocation::SolveOffline({"openb-policy.yaml", text, "demand.yaml", DerivedDemand(solved.policy)});
  EXPECT_THAT(recs, IsOk());
  if (!recs.ok()) return solved;
  solved.rows = *std::move(recs);
  return solved;
}

// "1500m" -> 1500, "2" -> 2000: the quantities the exports write.
int64_t Milli(const YAML::Node& quantity) {
  std::string s = quantity.Scalar();
  int64_t v = 0;
  if (!s.empty() && s.back() == 'm') {
    EXPECT_TRUE(absl::SimpleAtoi(s.substr(0, s.size() - 1), &v)) << s;
    return v;
  }
  EXPECT_TRUE(absl::SimpleAtoi(s, &v)) << s;
  return v * 1000;
}

// Kind -> the served v1beta2 schema of its CRD (../shared/data/kueue-crds).
std::map<std::string, YAML::Node> KueueSchemas() {
  const std::map<std::string, std::string> crd_of = {{"ResourceFlavor", "kueue.x-k8s.io_resourceflavors.yaml"},
                                                     {"Cohort", "kueue.x-k8s.io_cohorts.yaml"},
                                                     {"ClusterQueue", "kueue.x-k8s.io_clusterqueues.yaml"}};
  std::map<std::string, YAML::Node> schemas;
  for (const auto& [kind, file] : crd_of) {
    absl::StatusOr<YAML::Node> schema =
        fleetcap::testing::CrdSchema(fleetcap::testing::SharedDataPath("kueue-crds/") + file, "v1beta2");
    EXPECT_THAT(schema, IsOk()) << file;
    if (schema.ok()) schemas.emplace(kind, *schema);
  }
  return schemas;
}

TEST(SchedulerManifestsOnTheDemoPolicy, KueueManifestsValidateAndKeepTheRecommendations) {
  Solved solved = SolveDemo();
  ASSERT_EQ(solved.rows.size(), 12u * 7u);
  // The labels a real cluster's nodes of each model carry, as the inventory
  // would report them.
  KueueOptions options;
  std::map<std::string, std::string> product_of;  // ResourceFlavor name -> its product label
  for (const policy::Flavor& flavor : solved.policy.flavors) {
    std::string product = absl::StrCat("NVIDIA-", flavor.model);
    std::replace_if(
        product.begin(), product.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)) && c != '-'; },
        '-');
    options.node_labels[flavor.name] = {{"nvidia.com/gpu.product", product}};
    product_of[flavor.name] = product;
  }
  absl::StatusOr<std::string> yaml = KueueManifests(solved.rows, solved.policy, options);
  ASSERT_THAT(yaml, IsOk());
  const std::map<std::string, YAML::Node> schemas = KueueSchemas();
  ASSERT_EQ(schemas.size(), 3u);
  std::map<std::pair<std::string, std::string>, const allocation::Recommendation*> row_of;
  for (const allocation::Recommendation& r : solved.rows) row_of[{r.team, r.flavor}] = &r;
  std::map<std::string, int64_t> quota_of_flavor;
  std::map<std::string, int> kinds;
  int borrowing_limits = 0, lending_limits = 0, fractional = 0;
  std::map<std::string, int64_t> spare_of_flavor;
  std::map<std::string, int64_t> withheld_of_flavor;
  for (const allocation::Recommendation& r : solved.rows) {
    withheld_of_flavor[r.flavor] +=
        std::max<int64_t>(0, r.guarantee_milli - r.lending_limit_milli - r.recommended_milli);
  }
  for (const YAML::Node& doc : YAML::LoadAll(*yaml)) {
    if (doc.IsNull()) continue;
    const std::string kind = doc["kind"].Scalar();
    ASSERT_EQ(schemas.count(kind), 1u) << kind;
    EXPECT_THAT(fleetcap::testing::SchemaProblems(schemas.at(kind), doc), IsEmpty()) << doc["metadata"]["name"];
    ++kinds[kind];
    if (kind == "ResourceFlavor") {
      // Every flavor selects its model's nodes: no `spec: {}` matching all of them.
      const std::string flavor = doc["metadata"]["annotations"]["fleetcap.io/flavor"].Scalar();
      const YAML::Node labels = doc["spec"]["nodeLabels"];
      ASSERT_TRUE(labels.IsMap()) << flavor;
      EXPECT_EQ(labels.size(), 1u) << flavor;
      EXPECT_EQ(labels["nvidia.com/gpu.product"].Scalar(), product_of.at(flavor)) << flavor;
    }
    if (kind == "Cohort" && doc["metadata"]["name"].Scalar() == "fleetcap") {
      for (const YAML::Node& group : doc["spec"]["resourceGroups"]) {
        for (const YAML::Node& flavor : group["flavors"]) {
          spare_of_flavor[flavor["name"].Scalar()] = Milli(flavor["resources"][0]["nominalQuota"]);
        }
      }
    }
    if (kind != "ClusterQueue") continue;
    const std::string team = doc["metadata"]["annotations"]["fleetcap.io/team"].Scalar();
    EXPECT_EQ(doc["spec"]["cohortName"].Scalar(), team < "team-06" ? "training" : "inference");
    for (const YAML::Node& group : doc["spec"]["resourceGroups"]) {
      for (const YAML::Node& flavor : group["flavors"]) {
        const allocation::Recommendation& row = *row_of.at({team, flavor["name"].Scalar()});
        const YAML::Node r = flavor["resources"][0];
        EXPECT_EQ(Milli(r["nominalQuota"]), row.recommended_milli);
        quota_of_flavor[row.flavor] += Milli(r["nominalQuota"]);
        borrowing_limits += r["borrowingLimit"] ? 1 : 0;
        lending_limits += r["lendingLimit"] ? 1 : 0;
        fractional += row.recommended_milli % 1000 != 0 ? 1 : 0;
        // A whole GPU is one unit of nvidia.com/gpu: never a milli-quantity.
        EXPECT_EQ(r["nominalQuota"].Scalar().back() == 'm', false) << team << " " << row.flavor;
        if (row.borrowing_limit_milli) {
          EXPECT_EQ(Milli(r["nominalQuota"]) + Milli(r["borrowingLimit"]),
                    row.guarantee_milli + *row.borrowing_limit_milli);
        } else {
          EXPECT_FALSE(r["borrowingLimit"]);
        }
        if (r["lendingLimit"]) {
          EXPECT_LE(Milli(r["lendingLimit"]), Milli(r["nominalQuota"]));
          EXPECT_EQ(Milli(r["nominalQuota"]) - Milli(r["lendingLimit"]),
                    std::min(row.recommended_milli, row.guarantee_milli - row.lending_limit_milli));
        } else {
          EXPECT_GE(row.lending_limit_milli, row.guarantee_milli);
        }
      }
    }
  }
  // The demo's rules give every leaf team borrowing limits on two flavors and
  // a lending limit on one. The derived demand is not in whole devices, but
  // every flavor of the demo is whole GPUs: so is every quota.
  EXPECT_EQ(borrowing_limits, 24);
  EXPECT_EQ(lending_limits, 12);
  EXPECT_EQ(fractional, 0);
  int64_t fractional_demand = 0;
  for (const allocation::Recommendation& r : solved.rows) fractional_demand += r.demand_milli % 1000 != 0 ? 1 : 0;
  EXPECT_GT(fractional_demand, 0);
  EXPECT_EQ(kinds["ResourceFlavor"], 7);
  EXPECT_EQ(kinds["Cohort"], 3);  // fleetcap, training, inference
  EXPECT_EQ(kinds["ClusterQueue"], 12);
  // Every flavor's capacity is in some quota, or withheld under lending limits.
  for (const policy::Flavor& f : solved.policy.flavors) {
    EXPECT_EQ(quota_of_flavor[f.name] + spare_of_flavor[f.name] + withheld_of_flavor[f.name], f.capacity_milli)
        << f.name;
  }
}

// What `make demo` serves: the openb replay labels each node with
// nvidia.com/gpu.product valued with the trace's model
// (ingest/openb/openb_inventory.h, OpenbInventoryChanges), and every demo
// flavor is one model in its own pool, so the API reads that one label for
// each flavor (tests/replay/openb_replay_test.cc checks it on the stored replay).
TEST(SchedulerManifestsOnTheDemoPolicy, ResourceFlavorsWithTheReplaysNodeLabelsValidate) {
  Solved solved = SolveDemo();
  KueueOptions options;
  for (const policy::Flavor& flavor : solved.policy.flavors) {
    options.node_labels[flavor.name] = {{"nvidia.com/gpu.product", flavor.model}};
  }
  absl::StatusOr<std::string> yaml = KueueManifests(solved.rows, solved.policy, options);
  ASSERT_THAT(yaml, IsOk());
  const std::map<std::string, YAML::Node> schemas = KueueSchemas();
  ASSERT_EQ(schemas.size(), 3u);
  std::map<std::string, std::string> model_of;  // flavor -> model
  for (const policy::Flavor& flavor : solved.policy.flavors) model_of[flavor.name] = flavor.model;
  std::map<std::string, std::string> selected;  // flavor -> the product its ResourceFlavor selects
  for (const YAML::Node& doc : YAML::LoadAll(*yaml)) {
    if (doc.IsNull()) continue;
    const std::string kind = doc["kind"].Scalar();
    ASSERT_EQ(schemas.count(kind), 1u) << kind;
    EXPECT_THAT(fleetcap::testing::SchemaProblems(schemas.at(kind), doc), IsEmpty()) << doc["metadata"]["name"];
    if (kind != "ResourceFlavor") continue;
    const std::string flavor = doc["metadata"]["annotations"]["fleetcap.io/flavor"].Scalar();
    const YAML::Node labels = doc["spec"]["nodeLabels"];
    ASSERT_TRUE(labels.IsMap()) << flavor;  // not `spec: {}`
    EXPECT_EQ(labels.size(), 1u) << flavor;
    selected[flavor] = labels["nvidia.com/gpu.product"].Scalar();
  }
  EXPECT_EQ(selected, model_of);
  EXPECT_THAT(*yaml, Not(HasSubstr("No node label is known")));
}

TEST(SchedulerManifestsOnTheDemoPolicy, VolcanoQueuesKeepGuaranteeWithinDeservedWithinCapability) {
  Solved solved = SolveDemo();
  absl::StatusOr<std::string> yaml = VolcanoManifests(solved.rows, solved.policy);
  ASSERT_THAT(yaml, IsOk());
  int queues = 0, guarantees = 0, capabilities = 0;
  int64_t deserved_total = 0;
  for (const YAML::Node& doc : YAML::LoadAll(*yaml)) {
    if (doc.IsNull()) continue;
    ++queues;
    const YAML::Node spec = doc["spec"];
    // Every demo flavor is an NVIDIA model: one resource, summed over seven flavors.
    ASSERT_EQ(spec["deserved"].size(), 1u);
    const int64_t deserved = Milli(spec["deserved"]["nvidia.com/gpu"]);
    deserved_total += deserved;
    if (spec["guarantee"]) {
      ++guarantees;
      EXPECT_LE(Milli(spec["guarantee"]["resource"]["nvidia.com/gpu"]), deserved);
    }
    if (spec["capability"]) {
      ++capabilities;
      EXPECT_GE(Milli(spec["capability"]["nvidia.com/gpu"]), deserved);
    }
  }
  EXPECT_EQ(queues, 12);
  EXPECT_EQ(guarantees, 12);   // 300 guaranteed on openb-g2, 100 of it lendable
  EXPECT_EQ(capabilities, 0);  // five flavors without rules borrow without limit
  int64_t capacity = 0;
  for (const policy::Flavor& f : solved.policy.flavors) capacity += f.capacity_milli;
  EXPECT_LE(deserved_total, capacity);
}

}  // namespace
}  // namespace fleetcap::exports
