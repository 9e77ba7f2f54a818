#pragma once
// The behaviour every PendingWaitsRepository promises, as test steps shared
// by the in-memory form's unit test and the PostgreSQL integration test. A
// fixture gives a fresh, empty store per test: `repo()` reads it and
// `AddWait(wait)` records one wait in it (on PostgreSQL: the pod and its row
// of pending_demand).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "store/pending_waits_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::pending_waits_contract {

using ::fleetcap::testing::IsOk;
using AddWaitFn = std::function<void(const PendingWaitRecord&)>;

const absl::Time kWindowStart = absl::FromUnixSeconds(1'772'326'800);  // 2026-03-01T01:00:00Z
const absl::Time kWindowEnd = kWindowStart + absl::Hours(4);

inline PendingWaitRecord Wait(const std::string& cluster, const std::string& pod_uid, absl::Time from,
                              std::optional<absl::Time> until) {
  PendingWaitRecord w;
  w.pod.cluster = cluster;
  w.pod.pod_uid = pod_uid;
  w.pod.namespace_name = "ns-" + pod_uid;
  w.pod.team_label = "team-" + pod_uid;
  w.pod.resource_name = "nvidia.com/gpu";
  w.pod.model = "H100";
  w.pod.requested_milli = 1000;
  w.pod.pending_from = from;
  w.pod.pod_name = "pod-" + pod_uid;
  w.until = until;
  return w;
}

inline std::vector<std::string> PodUids(const std::vector<PendingWaitRecord>& waits) {
  std::vector<std::string> out;
  for (const PendingWaitRecord& w : waits) out.push_back(w.pod.pod_uid);
  return out;
}

inline void AnEmptyStoreHasNoWaits(PendingWaitsRepository& repo) {
  auto waits = repo.Waits(kWindowStart, kWindowEnd, 100);
  ASSERT_THAT(waits, IsOk());
  EXPECT_TRUE(waits->empty());
}

// A wait that ends at the window's start, or starts at its end, is outside
// it; one that starts at the start, or ends just after it, is inside.
inline void WaitsOverlappingTheWindowAreReadOldestFirst(PendingWaitsRepository& repo, const AddWaitFn& add) {
  add(Wait("c1", "ends-at-start", kWindowStart - absl::Hours(1), kWindowStart));
  add(Wait("c1", "starts-at-end", kWindowEnd, std::nullopt));
  add(Wait("c1", "open", kWindowStart + absl::Hours(2), std::nullopt));
  add(Wait("c1", "ends-inside", kWindowStart - absl::Hours(2), kWindowStart + absl::Seconds(1)));
  add(Wait("c1", "starts-at-start", kWindowStart, kWindowEnd + absl::Hours(1)));
  auto waits = repo.Waits(kWindowStart, kWindowEnd, 100);
  ASSERT_THAT(waits, IsOk());
  EXPECT_EQ(PodUids(*waits), (std::vector<std::string>{"ends-inside", "starts-at-start", "open"}));
}

inline void EveryFieldOfAWaitReadsBack(PendingWaitsRepository& repo, const AddWaitFn& add) {
  PendingWaitRecord ended = Wait("c1", "p-ended", kWindowStart + absl::Minutes(30), kWindowStart + absl::Hours(1));
  ended.pod.model = "";
  ended.pod.requested_milli = 2500;
  PendingWaitRecord open = Wait("c1", "p-open", kWindowStart + absl::Hours(1), std::nullopt);
  add(ended);
  add(open);
  auto waits = repo.Waits(kWindowStart, kWindowEnd, 100);
  ASSERT_THAT(waits, IsOk());
  ASSERT_EQ(waits->size(), 2u);
  EXPECT_EQ((*waits)[0], ended);
  EXPECT_EQ((*waits)[1], open);
  EXPECT_FALSE((*waits)[1].until.has_value());
}

inline void TiesAreOrderedByClusterThenPod(PendingWaitsRepository& repo, const AddWaitFn& add) {
  const absl::Time at = kWindowStart + absl::Hours(1);
  add(Wait("c2", "a", at, std::nullopt));
  add(Wait("c1", "b", at, std::nullopt));
  add(Wait("c1", "a", at, std::nullopt));
  add(Wait("c2", "early", at - absl::Minutes(1), std::nullopt));
  auto waits = repo.Waits(kWindowStart, kWindowEnd, 100);
  ASSERT_THAT(waits, IsOk());
  ASSERT_EQ(waits->size(), 4u);
  EXPECT_EQ(PodUids(*waits), (std::vector<std::string>{"early", "a", "b", "a"}));
  EXPECT_EQ((*waits)[1].pod.cluster, "c1");
  EXPECT_EQ((*waits)[3].pod.cluster, "c2");
}

inline void TheLimitKeepsTheOldestWaits(PendingWaitsRepository& repo, const AddWaitFn& add) {
  for (int i = 0; i < 5; ++i) {
    add(Wait("c1", "p" + std::to_string(i), kWindowStart + absl::Minutes(10 * (5 - i)), std::nullopt));
  }
  auto two = repo.Waits(kWindowStart, kWindowEnd, 2);
  ASSERT_THAT(two, IsOk());
  EXPECT_EQ(PodUids(*two), (std::vector<std::string>{"p4", "p3"}));
  auto none = repo.Waits(kWindowStart, kWindowEnd, 0);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
  auto negative = repo.Waits(kWindowStart, kWindowEnd, -1);
  ASSERT_THAT(negative, IsOk());
  EXPECT_TRUE(negative->empty());
}

// An empty or reversed window holds no wait, even one open across it.
inline void AnEmptyWindowHoldsNoWait(PendingWaitsRepository& repo, const AddWaitFn& add) {
  add(Wait("c1", "open", kWindowStart - absl::Hours(1), std::nullopt));
  for (const auto& [start, end] : {std::pair{kWindowStart, kWindowStart}, std::pair{kWindowEnd, kWindowStart}}) {
    auto waits = repo.Waits(start, end, 100);
    ASSERT_THAT(waits, IsOk());
    EXPECT_TRUE(waits->empty());
  }
}

}  // namespace fleetcap::store::pending_waits_contract

// Instantiates the contract as tests of fixture `Fixture`, whose `repo()` is
// a fresh repository over an empty store per test and whose
// `AddWait(const PendingWaitRecord&)` records a wait in that store.
#define FLEETCAP_PENDING_WAITS_CONTRACT_TESTS(Fixture)                                      \
  TEST_F(Fixture, AnEmptyStoreHasNoWaits) {                                                 \
    ::fleetcap::store::pending_waits_contract::AnEmptyStoreHasNoWaits(repo());              \
  }                                                                                         \
  TEST_F(Fixture, WaitsOverlappingTheWindowAreReadOldestFirst) {                            \
    ::fleetcap::store::pending_waits_contract::WaitsOverlappingTheWindowAreReadOldestFirst( \
        repo(), [this](const ::fleetcap::store::PendingWaitRecord& w) { AddWait(w); });     \
  }                                                                                         \
  TEST_F(Fixture, EveryFieldOfAWaitReadsBack) {                                             \
    ::fleetcap::store::pending_waits_contract::EveryFieldOfAWaitReadsBack(                  \
        repo(), [this](const ::fleetcap::store::PendingWaitRecord& w) { AddWait(w); });     \
  }                                                                                         \
  TEST_F(Fixture, TiesAreOrderedByClusterThenPod) {                                         \
    ::fleetcap::store::pending_waits_contract::TiesAreOrderedByClusterThenPod(              \
        repo(), [this](const ::fleetcap::store::PendingWaitRecord& w) { AddWait(w); });     \
  }                                                                                         \
  TEST_F(Fixture, TheLimitKeepsTheOldestWaits) {                                            \
    ::fleetcap::store::pending_waits_contract::TheLimitKeepsTheOldestWaits(                 \
        repo(), [this](const ::fleetcap::store::PendingWaitRecord& w) { AddWait(w); });     \
  }                                                                                         \
  TEST_F(Fixture, AnEmptyWindowHoldsNoWait) {                                               \
    ::fleetcap::store::pending_waits_contract::AnEmptyWindowHoldsNoWait(                    \
        repo(), [this](const ::fleetcap::store::PendingWaitRecord& w) { AddWait(w); });     \
  }
