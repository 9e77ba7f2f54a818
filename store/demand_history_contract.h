#pragma once
// The behaviour every DemandHistoryRepository promises, as test steps shared
// by the in-memory form's unit test and the PostgreSQL integration test.
// Each step takes the test's fixture `f`, which gives a fresh, empty store
// per test: `f.repo()` reads it, `f.AddHeld(record)` records a team's held
// device time of an hour (on PostgreSQL: a workload line of the chargeback)
// and `f.AddPending(pod, pending_to, deleted_at)` a wait (as
// MemoryDemandHistoryRepository's).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "store/demand_history_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::demand_history_contract {

using ::fleetcap::testing::IsOk;

const absl::Time kHistoryT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

inline HeldHourRecord Held(const std::string& cluster, const std::string& model, const std::string& team, int hour,
                           int64_t held) {
  return {cluster, model, team, kHistoryT0 + absl::Hours(hour), held};
}

inline PendingPodRecord Waiting(const std::string& cluster, const std::string& uid, absl::Time from) {
  PendingPodRecord p;
  p.cluster = cluster;
  p.pod_uid = uid;
  p.namespace_name = "ns-" + uid;
  p.team_label = "team-" + uid;
  p.resource_name = "nvidia.com/gpu";
  p.model = "H100";
  p.requested_milli = 1000;
  p.pending_from = from;
  p.pod_name = "pod-" + uid;
  return p;
}

inline std::vector<std::string> Uids(const std::vector<PendingPodRecord>& pods) {
  std::vector<std::string> out;
  for (const PendingPodRecord& p : pods) out.push_back(p.pod_uid);
  return out;
}

// Hours of [start, end) with held time above zero, ordered by cluster,
// model, team and hour.
template <typename Fixture>
void HeldHoursAreOrderedAndKeepToTheWindow(Fixture& f) {
  f.AddHeld(Held("c2", "H100", "vision", 0, 100 * 3600));
  f.AddHeld(Held("c1", "T4", "vision", 1, 2000 * 3600));
  f.AddHeld(Held("c1", "H100", "vision", 1, 1000 * 3600));
  f.AddHeld(Held("c1", "H100", "speech", 1, 250 * 3600));
  f.AddHeld(Held("c1", "H100", "speech", 0, 750 * 3600));
  f.AddHeld(Held("c1", "H100", "speech", 2, 500 * 3600));   // at the window's end
  f.AddHeld(Held("c1", "H100", "speech", -1, 500 * 3600));  // before its start
  auto held = f.repo().HeldHours(kHistoryT0, kHistoryT0 + absl::Hours(2));
  ASSERT_THAT(held, IsOk());
  EXPECT_EQ(*held, (std::vector<HeldHourRecord>{
                       Held("c1", "H100", "speech", 0, 750 * 3600),
                       Held("c1", "H100", "speech", 1, 250 * 3600),
                       Held("c1", "H100", "vision", 1, 1000 * 3600),
                       Held("c1", "T4", "vision", 1, 2000 * 3600),
                       Held("c2", "H100", "vision", 0, 100 * 3600),
                   }));
  auto none = f.repo().HeldHours(kHistoryT0 + absl::Hours(5), kHistoryT0 + absl::Hours(6));
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

// A wait is open at `at` from its start, up to (not at) its end or its
// pod's deletion; the oldest first, ties by cluster and pod, every field
// read back.
template <typename Fixture>
void PendingAtIsTheWaitsOpenAtTheInstant(Fixture& f) {
  const absl::Time at = kHistoryT0 + absl::Hours(3);
  f.AddPending(Waiting("c1", "starts-at", at), std::nullopt, std::nullopt);
  f.AddPending(Waiting("c1", "starts-after", at + absl::Seconds(1)), std::nullopt, std::nullopt);
  f.AddPending(Waiting("c1", "ends-at", at - absl::Hours(1)), at, std::nullopt);
  f.AddPending(Waiting("c1", "deleted-at", at - absl::Hours(1)), std::nullopt, at);
  f.AddPending(Waiting("c2", "tie", at - absl::Hours(1)), at + absl::Seconds(1), std::nullopt);
  f.AddPending(Waiting("c1", "tie", at - absl::Hours(1)), std::nullopt, at + absl::Hours(1));
  PendingPodRecord oldest = Waiting("c1", "oldest", at - absl::Hours(2));
  oldest.model = "";
  oldest.requested_milli = 2500;
  f.AddPending(oldest, std::nullopt, std::nullopt);

  auto pending = f.repo().PendingAt(at, 100);
  ASSERT_THAT(pending, IsOk());
  EXPECT_EQ(Uids(*pending), (std::vector<std::string>{"oldest", "tie", "tie", "starts-at"}));
  ASSERT_EQ(pending->size(), 4u);
  EXPECT_EQ((*pending)[0], oldest);
  EXPECT_EQ((*pending)[1].cluster, "c1");
  EXPECT_EQ((*pending)[2].cluster, "c2");
  auto limited = f.repo().PendingAt(at, 2);
  ASSERT_THAT(limited, IsOk());
  EXPECT_EQ(Uids(*limited), (std::vector<std::string>{"oldest", "tie"}));
  auto before = f.repo().PendingAt(kHistoryT0, 100);
  ASSERT_THAT(before, IsOk());
  EXPECT_TRUE(before->empty());
}

}  // namespace fleetcap::store::demand_history_contract

// Instantiates the contract as tests of fixture `Fixture` (see above).
#define FLEETCAP_DEMAND_HISTORY_CONTRACT_TESTS(Fixture)                                       \
  TEST_F(Fixture, HeldHoursAreOrderedAndKeepToTheWindow) {                                    \
    ::fleetcap::store::demand_history_contract::HeldHoursAreOrderedAndKeepToTheWindow(*this); \
  }                                                                                           \
  TEST_F(Fixture, PendingAtIsTheWaitsOpenAtTheInstant) {                                      \
    ::fleetcap::store::demand_history_contract::PendingAtIsTheWaitsOpenAtTheInstant(*this);   \
  }
