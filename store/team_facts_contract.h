#pragma once
// The behaviour every TeamFactsRepository promises, as test steps shared by
// the in-memory form's unit test and the PostgreSQL integration test. Each
// step takes the test's fixture `f`, which gives a fresh, empty store per
// test: `f.repo()` reads it, and `f.AddPod`, `f.AddHold`, `f.AddNamespace`
// and `f.Apply` (as MemoryTeamFactsRepository's) record facts in it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "store/memory_team_facts_repository.h"
#include "store/team_facts_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::team_facts_contract {

using ::fleetcap::testing::IsOk;
using Pod = MemoryTeamFactsRepository::Pod;
using Hold = MemoryTeamFactsRepository::Hold;

const absl::Time kT0 = absl::FromUnixSeconds(1'772'326'800);  // 2026-03-01T01:00:00Z

inline Pod APod(const std::string& cluster, const std::string& uid, const std::string& ns, const std::string& team,
                absl::Time created_at, std::optional<absl::Time> deleted_at = std::nullopt) {
  return {cluster, uid, ns, team, created_at, deleted_at};
}

inline Hold AHold(const std::string& cluster, const std::string& uid, int64_t milli, absl::Time from,
                  std::optional<absl::Time> to = std::nullopt) {
  Hold h;
  h.cluster = cluster;
  h.pod_uid = uid;
  h.milli = milli;
  h.held_from = from;
  h.held_to = to;
  h.device_in_service_from = kT0 - absl::Hours(24);
  return h;
}

// (cluster, namespace, team, held) of each, sorted: the order is not promised.
inline std::vector<std::tuple<std::string, std::string, std::string, int64_t>> Sorted(
    const std::vector<PodTeamEvidence>& pods) {
  std::vector<std::tuple<std::string, std::string, std::string, int64_t>> out;
  for (const PodTeamEvidence& p : pods) out.emplace_back(p.cluster, p.namespace_name, p.team_label, p.held_milli);
  std::sort(out.begin(), out.end());
  return out;
}

// A pod's holds of several devices add up; a hold counts from its start, not
// at its end, and only while its device is in service.
template <typename Fixture>
void HoldersAtSumEachPodsHoldsOnDevicesInService(Fixture& f) {
  for (const char* uid : {"a", "ended", "starts", "retired", "unplaced"}) {
    f.AddPod(APod("c1", uid, "ns-" + std::string(uid), uid == std::string("a") ? "team-x" : "", kT0 - absl::Hours(2)));
  }
  f.AddPod(APod("c2", "other", "ns-o", "team-o", kT0 - absl::Hours(2)));
  f.AddHold(AHold("c1", "a", 500, kT0 - absl::Hours(1)));
  f.AddHold(AHold("c1", "a", 250, kT0 - absl::Minutes(1), kT0 + absl::Minutes(1)));
  f.AddHold(AHold("c1", "ended", 1000, kT0 - absl::Hours(1), kT0));
  f.AddHold(AHold("c1", "starts", 125, kT0));
  Hold retired = AHold("c1", "retired", 1000, kT0 - absl::Hours(1));
  retired.device_in_service_to = kT0;
  f.AddHold(retired);
  Hold unplaced = AHold("c1", "unplaced", 1000, kT0 - absl::Hours(1));
  unplaced.device_in_service_from = kT0 + absl::Seconds(1);
  f.AddHold(unplaced);
  f.AddHold(AHold("c2", "other", 1000, kT0 - absl::Hours(1)));

  auto c1 = f.repo().HoldersAt("c1", kT0);
  ASSERT_THAT(c1, IsOk());
  using Row = std::tuple<std::string, std::string, std::string, int64_t>;
  EXPECT_EQ(Sorted(*c1), (std::vector<Row>{{"c1", "ns-a", "team-x", 750}, {"c1", "ns-starts", "", 125}}));
  auto all = f.repo().HoldersAt("", kT0);
  ASSERT_THAT(all, IsOk());
  EXPECT_EQ(
      Sorted(*all),
      (std::vector<Row>{{"c1", "ns-a", "team-x", 750}, {"c1", "ns-starts", "", 125}, {"c2", "ns-o", "team-o", 1000}}));
  auto before = f.repo().HoldersAt("", kT0 - absl::Hours(3));
  ASSERT_THAT(before, IsOk());
  EXPECT_TRUE(before->empty());
}

// The pods of a namespace that existed at some time of [start, end), each
// team label once.
template <typename Fixture>
void PodsOfNamespaceAreThoseOfTheWindowEachTeamOnce(Fixture& f) {
  const absl::Time start = kT0;
  const absl::Time end = kT0 + absl::Hours(1);
  f.AddPod(APod("c1", "gone-at-start", "ns", "team-gone", start - absl::Hours(1), start));
  f.AddPod(APod("c1", "made-at-end", "ns", "team-late", end));
  f.AddPod(APod("c1", "x1", "ns", "team-x", start - absl::Hours(1)));
  f.AddPod(APod("c1", "x2", "ns", "team-x", start + absl::Minutes(5), end + absl::Hours(1)));
  f.AddPod(APod("c1", "unlabelled", "ns", "", end - absl::Seconds(1)));
  f.AddPod(APod("c1", "deleted-inside", "ns", "team-y", start - absl::Hours(1), start + absl::Seconds(1)));
  f.AddPod(APod("c1", "other-ns", "ns-2", "team-z", start));
  f.AddPod(APod("c2", "other-cluster", "ns", "team-w", start));

  auto pods = f.repo().PodsOfNamespace("c1", "ns", start, end);
  ASSERT_THAT(pods, IsOk());
  using Row = std::tuple<std::string, std::string, std::string, int64_t>;
  EXPECT_EQ(Sorted(*pods),
            (std::vector<Row>{{"c1", "ns", "", 0}, {"c1", "ns", "team-x", 0}, {"c1", "ns", "team-y", 0}}));
  auto none = f.repo().PodsOfNamespace("c1", "ns-none", start, end);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

template <typename Fixture>
void NamespacesReadBackByClusterAndName(Fixture& f) {
  NamespaceLabels a{"ns-a", {{"team", "vision"}, {"tier", "gold"}}, {{"fleetcap.io/team", "vision-core"}}};
  NamespaceLabels b{"ns-b", {{"team", "speech"}}, {}};
  NamespaceLabels c{"ns-a", {}, {{"owner", "ops"}}};
  f.AddNamespace("c1", a);
  f.AddNamespace("c1", b);
  f.AddNamespace("c2", c);

  auto all = f.repo().Namespaces("", "");
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->size(), 3u);
  const NamespaceLabels& got_a = all->at({"c1", "ns-a"});
  EXPECT_EQ(got_a.name, "ns-a");
  EXPECT_EQ(got_a.labels, a.labels);
  EXPECT_EQ(got_a.annotations, a.annotations);
  EXPECT_EQ(all->at({"c2", "ns-a"}).annotations, c.annotations);
  EXPECT_TRUE(all->at({"c2", "ns-a"}).labels.empty());

  auto of_c1 = f.repo().Namespaces("c1", "");
  ASSERT_THAT(of_c1, IsOk());
  EXPECT_EQ(of_c1->size(), 2u);
  auto named = f.repo().Namespaces("", "ns-a");
  ASSERT_THAT(named, IsOk());
  EXPECT_EQ(named->size(), 2u);
  EXPECT_EQ(named->count({"c1", "ns-b"}), 0u);
  auto one = f.repo().Namespaces("c1", "ns-b");
  ASSERT_THAT(one, IsOk());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->at({"c1", "ns-b"}).labels, b.labels);

  // A namespace kept with neither labels nor annotations has no evidence to read.
  f.AddNamespace("c1", NamespaceLabels{"bare", {}, {}});
  auto bare = f.repo().Namespaces("c1", "bare");
  ASSERT_THAT(bare, IsOk());
  EXPECT_TRUE(bare->empty());
}

template <typename Fixture>
void PoliciesAfterAVersionAreReadOldestFirst(Fixture& f) {
  EXPECT_EQ(f.Apply("version: 1\n", kT0), 1);
  EXPECT_EQ(f.Apply("version: 2\n", kT0 + absl::Hours(1)), 2);
  EXPECT_EQ(f.Apply("version: 3\n", kT0 + absl::Hours(2) + absl::Microseconds(7)), 3);

  auto after1 = f.repo().PoliciesAfter(1);
  ASSERT_THAT(after1, IsOk());
  ASSERT_EQ(after1->size(), 2u);
  EXPECT_EQ((*after1)[0].version, 2);
  EXPECT_EQ((*after1)[0].document, "version: 2\n");
  EXPECT_EQ((*after1)[0].applied_at, kT0 + absl::Hours(1));
  EXPECT_EQ((*after1)[1].version, 3);
  EXPECT_EQ((*after1)[1].applied_at, kT0 + absl::Hours(2) + absl::Microseconds(7));
  auto all = f.repo().PoliciesAfter(0);
  ASSERT_THAT(all, IsOk());
  EXPECT_EQ(all->size(), 3u);
  auto none = f.repo().PoliciesAfter(3);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

}  // namespace fleetcap::store::team_facts_contract

// Instantiates the contract as tests of fixture `Fixture` (see above).
#define FLEETCAP_TEAM_FACTS_CONTRACT_TESTS(Fixture)                                                \
  TEST_F(Fixture, HoldersAtSumEachPodsHoldsOnDevicesInService) {                                   \
    ::fleetcap::store::team_facts_contract::HoldersAtSumEachPodsHoldsOnDevicesInService(*this);    \
  }                                                                                                \
  TEST_F(Fixture, PodsOfNamespaceAreThoseOfTheWindowEachTeamOnce) {                                \
    ::fleetcap::store::team_facts_contract::PodsOfNamespaceAreThoseOfTheWindowEachTeamOnce(*this); \
  }                                                                                                \
  TEST_F(Fixture, NamespacesReadBackByClusterAndName) {                                            \
    ::fleetcap::store::team_facts_contract::NamespacesReadBackByClusterAndName(*this);             \
  }                                                                                                \
  TEST_F(Fixture, PoliciesAfterAVersionAreReadOldestFirst) {                                       \
    ::fleetcap::store::team_facts_contract::PoliciesAfterAVersionAreReadOldestFirst(*this);        \
  }
