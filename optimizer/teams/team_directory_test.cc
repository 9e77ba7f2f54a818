#include "optimizer/teams/team_directory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/status_matchers.h"

namespace fleetcap::teams {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::ElementsAre;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

const absl::Time kT0 = absl::FromUnixSeconds(1'700'000'000);

// The team facts the directory reads, held in memory, counting its reads of namespaces (which no
// implementation does): how the tests see that the directory reads them once.
class CountingTeamFacts : public store::TeamFactsRepository {
 public:
  void AddNamespace(const std::string& cluster, store::NamespaceLabels ns) {
    namespaces_[{cluster, ns.name}] = std::move(ns);
  }
  void AddPod(store::PodTeamEvidence pod) { pods_.push_back(std::move(pod)); }
  void Apply(std::string document, absl::Time applied_at) {
    store::PolicyVersionRecord r;
    r.version = static_cast<int32_t>(policies_.size()) + 1;
    r.document = std::move(document);
    r.applied_at = applied_at;
    policies_.push_back(std::move(r));
  }
  int namespace_reads() const { return namespace_reads_; }

  absl::StatusOr<std::vector<store::PodTeamEvidence>> HoldersAt(const std::string& cluster, absl::Time) override {
    std::vector<store::PodTeamEvidence> out;
    for (const auto& p : pods_) {
      if (cluster.empty() || p.cluster == cluster) out.push_back(p);
    }
    return out;
  }
  absl::StatusOr<std::vector<store::PodTeamEvidence>> PodsOfNamespace(const std::string& cluster,
                                                                      const std::string& namespace_name, absl::Time,
                                                                      absl::Time) override {
    std::vector<store::PodTeamEvidence> out;
    for (const auto& p : pods_) {
      if ((cluster.empty() || p.cluster == cluster) && p.namespace_name == namespace_name) out.push_back(p);
    }
    return out;
  }
  absl::StatusOr<std::map<std::pair<std::string, std::string>, store::NamespaceLabels>> Namespaces(
      const std::string& cluster, const std::string& namespace_name) override {
    ++namespace_reads_;
    std::map<std::pair<std::string, std::string>, store::NamespaceLabels> out;
    for (const auto& [key, ns] : namespaces_) {
      if ((cluster.empty() || key.first == cluster) && (namespace_name.empty() || key.second == namespace_name)) {
        out[key] = ns;
      }
    }
    return out;
  }
  absl::StatusOr<std::vector<store::PolicyVersionRecord>> PoliciesAfter(int32_t after_version) override {
    std::vector<store::PolicyVersionRecord> out;
    for (const auto& p : policies_) {
      if (p.version > after_version) out.push_back(p);
    }
    return out;
  }

 private:
  std::map<std::pair<std::string, std::string>, store::NamespaceLabels> namespaces_;
  std::vector<store::PodTeamEvidence> pods_;
  std::vector<store::PolicyVersionRecord> policies_;
  int namespace_reads_ = 0;
};

// Teams a and b; namespaces named by the `team` label; ml-b is b's by rule.
std::string PolicyMapping(const std::string& rule_team) {
  return "version: 1\nteams:\n  - name: a\n  - name: b\n"
         "team_label_keys: [team]\nnamespaces:\n  - namespace: ml-b\n    team: " +
         rule_team + "\n";
}

store::NamespaceLabels Labelled(const std::string& name, const std::string& team) {
  store::NamespaceLabels ns;
  ns.name = name;
  ns.labels = {{"team", team}};
  return ns;
}

class TeamDirectoryTest : public ::testing::Test {
 protected:
  TeamDirectoryTest() {
    facts_.AddNamespace("c1", Labelled("ml-a", "a"));
    facts_.AddNamespace("c2", Labelled("ml-a", "b"));
    facts_.Apply(PolicyMapping("b"), kT0);
    facts_.Apply(PolicyMapping("a"), kT0 + absl::Hours(2));
  }

  CountingTeamFacts facts_;
};

TEST_F(TeamDirectoryTest, NamespaceEvidenceIsFoundByClusterAndName) {
  TeamDirectory directory(&facts_);
  auto book = directory.Namespaces("", "");
  ASSERT_TRUE(book.ok()) << book.status();
  ASSERT_NE(book->Find("c1", "ml-a"), nullptr);
  EXPECT_EQ(book->Find("c1", "ml-a")->labels.at("team"), "a");
  EXPECT_EQ(book->Find("c2", "ml-a")->labels.at("team"), "b");
  EXPECT_EQ(book->Find("c3", "ml-a"), nullptr);
}

TEST_F(TeamDirectoryTest, ResolveTeamsReadsNoEvidenceWithoutPods) {
  const policy::TeamResolver resolver;
  auto teams = ResolveTeams(&facts_, resolver, {});
  ASSERT_TRUE(teams.ok()) << teams.status();
  EXPECT_TRUE(teams->empty());
  EXPECT_EQ(facts_.namespace_reads(), 0);
}

TEST_F(TeamDirectoryTest, TeamsOfPodsAtUseTheVersionInForceThen) {
  TeamDirectory directory(&facts_);
  const std::vector<store::PodTeamEvidence> pods = {
      {"c1", "ml-a", "", 0}, {"c2", "ml-a", "", 0}, {"c1", "ml-b", "", 0}};
  auto before = directory.TeamsOfPodsAt(pods, kT0 + absl::Hours(1));
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_THAT(*before, ElementsAre("a", "b", "b"));
  auto after = directory.TeamsOfPodsAt(pods, kT0 + absl::Hours(3));
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_THAT(*after, ElementsAre("a", "b", "a"));
}

TEST_F(TeamDirectoryTest, HeldByTeamAtSumsEachPodUnderItsTeam) {
  facts_.AddPod({"c1", "ml-a", "", 500});
  facts_.AddPod({"c2", "ml-a", "", 250});
  facts_.AddPod({"c1", "ml-b", "", 1000});
  TeamDirectory directory(&facts_);
  auto held = directory.HeldByTeamAt("", kT0 + absl::Hours(1));
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_THAT(*held, ElementsAre(Pair("a", 500), Pair("b", 1250)));
  auto c1 = directory.HeldByTeamAt("c1", kT0 + absl::Hours(3));
  ASSERT_TRUE(c1.ok()) << c1.status();
  EXPECT_THAT(*c1, ElementsAre(Pair("a", 1500)));
}

TEST_F(TeamDirectoryTest, TeamsOfNamespaceCoverEveryVersionOfTheWindow) {
  facts_.AddPod({"c1", "ml-b", "", 0});
  TeamDirectory directory(&facts_);
  auto both = directory.TeamsOfNamespace("c1", "ml-b", kT0, kT0 + absl::Hours(3));
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_THAT(*both, UnorderedElementsAre("a", "b"));
  auto early = directory.TeamsOfNamespace("c1", "ml-b", kT0, kT0 + absl::Hours(1));
  ASSERT_TRUE(early.ok()) << early.status();
  EXPECT_THAT(*early, UnorderedElementsAre("b"));
}

TEST_F(TeamDirectoryTest, ScheduleSplitsATeamAtAPolicyChange) {
  policy::PolicyTimeline timeline(PoliciesOf(&facts_));
  ASSERT_THAT(timeline.Refresh(), IsOk());
  const TeamDirectory directory(&facts_, &timeline);
  auto schedule = directory.Schedule();
  ASSERT_TRUE(schedule.ok()) << schedule.status();
  const auto spans = (*schedule)->TeamsDuring({"c1", "ml-b", ""}, kT0, kT0 + absl::Hours(4));
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].team, "b");
  EXPECT_EQ(spans[0].to, kT0 + absl::Hours(2));
  EXPECT_EQ(spans[1].team, "a");
}

TEST_F(TeamDirectoryTest, ANewVersionIsSeenAfterRefresh) {
  TeamDirectory directory(&facts_);
  ASSERT_THAT(directory.Refresh(), IsOk());
  EXPECT_EQ(directory.timeline().At(kT0 + absl::Hours(9)).version, 2);
  facts_.Apply(PolicyMapping("b"), kT0 + absl::Hours(8));
  EXPECT_EQ(directory.timeline().At(kT0 + absl::Hours(9)).version, 2);
  ASSERT_THAT(directory.Refresh(), IsOk());
  EXPECT_EQ(directory.timeline().At(kT0 + absl::Hours(9)).version, 3);
}

TEST_F(TeamDirectoryTest, UpToAVersionTheNewerOnesAreNotSeen) {
  facts_.AddPod({"c1", "ml-b", "", 1000});
  TeamDirectory directory(&facts_);
  const absl::Time later = kT0 + absl::Hours(3);
  auto pods = directory.TeamsOfPodsAt({{"c1", "ml-b", "", 0}}, later, 1);
  ASSERT_TRUE(pods.ok()) << pods.status();
  EXPECT_THAT(*pods, ElementsAre("b"));
  auto held = directory.HeldByTeamAt("c1", later, 1);
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_THAT(*held, ElementsAre(Pair("b", 1000)));
  auto teams = directory.TeamsOfNamespace("c1", "ml-b", kT0, later, 1);
  ASSERT_TRUE(teams.ok()) << teams.status();
  EXPECT_THAT(*teams, UnorderedElementsAre("b"));
}

}  // namespace
}  // namespace fleetcap::teams
