#pragma once
// The behaviour every AttributionFactsRepository promises, as test steps
// shared by the in-memory fake's unit test and the PostgreSQL integration
// test. The facts are written through the inventory and usage repositories,
// and usage is read as the usage rollup repository rolled it up.

#include <gtest/gtest.h>

#include "store/attribution_facts_repository.h"
#include "store/live_inventory_repository.h"
#include "store/usage_contract.h"
#include "store/usage_repository.h"
#include "store/usage_rollup_repository.h"

namespace fleetcap::store::attribution_facts_contract {

const absl::Time kT0 = absl::FromUnixMillis(usage_contract::kT0);  // 2026-01-01T00:00:00Z

inline absl::Time At(int minutes) { return kT0 + absl::Minutes(minutes); }

inline LivePod APod(const std::string& uid, const std::string& ns, const std::string& team, const std::string& kind,
                    const std::string& workload) {
  return {{uid, ns, uid + "-pod", team, kind, workload, "Running", At(-600), At(-600), std::nullopt, 1000, false},
          "node-1"};
}

// The window is [At(0), At(120)). c1 has GPU-0 in service throughout (and
// since before), GPU-1 taken out at 30 and back at 90, GPU-2 gone before the
// window, GPU-3 only after it; c2 has a device of its own.
inline void WriteFacts(LiveInventoryRepository& inventory, UsageWriteRepository& usage) {
  InventoryChanges c;
  c.cluster = "c1";
  c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
  c.nodes = {{{"node-1", "", 0, 0, At(-600), std::nullopt}, ""}};
  c.devices = {
      {"GPU-0", "node-1", 0, "H100", At(-600), std::nullopt}, {"GPU-1", "node-1", 1, "H100", At(-600), At(30)},
      {"GPU-1", "node-1", 1, "H100", At(90), std::nullopt},   {"GPU-2", "node-1", 2, "H100", At(-600), At(-10)},
      {"GPU-3", "node-1", 3, "H100", At(120), std::nullopt},  {"GPU-4", "node-1", 4, "H100", At(50), At(50)}};
  c.pods = {APod("uid-a", "ml", "research", "Job", "train"), APod("uid-b", "web", "", "Deployment", "serve")};
  c.holds = {{"uid-a", "GPU-0", 428, At(-60), At(45)},
             {"uid-b", "GPU-0", 250, At(10), std::nullopt},
             {"uid-a", "GPU-1", 1000, At(100), At(110)},
             {"uid-z", "GPU-1", 500, At(95), At(130)},  // a pod the inventory does not know
             {"uid-b", "GPU-2", 1000, At(-300), At(-20)},
             {"uid-b", "GPU-0", 100, At(60), At(60)}};
  ASSERT_TRUE(inventory.Apply(c).ok());
  InventoryChanges other;
  other.cluster = "c2";
  other.types = c.types;
  other.devices = {{"GPU-0", "node-9", 0, "H100", At(-600), std::nullopt}};
  other.pods = {APod("uid-c", "ml", "x", "Pod", "uid-c-pod")};
  other.holds = {{"uid-c", "GPU-0", 1000, At(0), std::nullopt}};
  ASSERT_TRUE(inventory.Apply(other).ok());

  using usage_contract::PodRow;
  using usage_contract::Row;
  const int64_t minute = usage_contract::kMinute;
  UsageMinuteRow no_reading = PodRow("GPU-0", "uid-a", "uid-a-pod", usage_contract::kT0 + 2 * minute, 0.5);
  no_reading.util_mean.reset();
  ASSERT_TRUE(
      usage
          .WriteMinutes("c1",
                        {PodRow("GPU-0", "uid-a", "uid-a-pod", usage_contract::kT0 - minute, 0.9),
                         PodRow("GPU-0", "uid-a", "uid-a-pod", usage_contract::kT0, 0.4285),
                         PodRow("GPU-0", "uid-a", "uid-a-pod", usage_contract::kT0 + minute, 0.0004), no_reading,
                         PodRow("GPU-0", "uid-b", "uid-b-pod", usage_contract::kT0 + 119 * minute, 0.25),
                         PodRow("GPU-0", "uid-b", "uid-b-pod", usage_contract::kT0 + 120 * minute, 0.25),
                         Row("GPU-0", usage_contract::kT0, 0.7)},
                        "pull")
          .ok());
  ASSERT_TRUE(usage.WriteMinutes("c2", {PodRow("GPU-0", "uid-c", "uid-c-pod", usage_contract::kT0, 1)}, "pull").ok());
}

// Rolls up the hours WriteFacts wrote usage in, and more.
inline void RollUpFacts(UsageRollupRepository& rollups) {
  ASSERT_TRUE(rollups.RollUp("c1", At(-60), At(180)).ok());
  ASSERT_TRUE(rollups.RollUp("c2", At(0), At(60)).ok());
}

inline AttributionFactsRecord FactsOf(const AttributionFactsRepository& facts, const std::string& cluster,
                                      absl::Time start, absl::Time end) {
  auto read = facts.Facts(cluster, start, end);
  EXPECT_TRUE(read.ok()) << read.status();
  return read.ok() ? *read : AttributionFactsRecord{};
}

inline void DevicesInServiceAreClippedToTheWindow(LiveInventoryRepository& inventory, UsageWriteRepository& usage,
                                                  UsageRollupRepository& rollups,
                                                  const AttributionFactsRepository& facts) {
  WriteFacts(inventory, usage);
  RollUpFacts(rollups);
  const auto read = FactsOf(facts, "c1", At(0), At(120));
  EXPECT_EQ(read.devices, (std::vector<DeviceInServiceRecord>{{"GPU-0", "node-1", "H100", At(0), At(120)},
                                                              {"GPU-1", "node-1", "H100", At(0), At(30)},
                                                              {"GPU-1", "node-1", "H100", At(90), At(120)}}));
  EXPECT_EQ(FactsOf(facts, "c2", At(0), At(60)).devices,
            (std::vector<DeviceInServiceRecord>{{"GPU-0", "node-9", "H100", At(0), At(60)}}));
  EXPECT_TRUE(FactsOf(facts, "c3", At(0), At(60)).devices.empty());
}

inline void HoldsCarryTheirPodsNamespaceTeamLabelAndWorkload(LiveInventoryRepository& inventory,
                                                             UsageWriteRepository& usage,
                                                             UsageRollupRepository& rollups,
                                                             const AttributionFactsRepository& facts) {
  WriteFacts(inventory, usage);
  RollUpFacts(rollups);
  const auto read = FactsOf(facts, "c1", At(0), At(120));
  EXPECT_EQ(read.holds,
            (std::vector<HoldFactRecord>{{"uid-a", "ml", "research", "Job/train", "GPU-0", 428, At(0), At(45)},
                                         {"uid-b", "web", "", "Deployment/serve", "GPU-0", 250, At(10), At(120)},
                                         {"uid-z", "", "", "", "GPU-1", 500, At(95), At(120)},
                                         {"uid-a", "ml", "research", "Job/train", "GPU-1", 1000, At(100), At(110)}}));
  const auto c2 = FactsOf(facts, "c2", At(0), At(60));
  ASSERT_EQ(c2.holds.size(), 1u);
  EXPECT_EQ(c2.holds[0].workload, "Pod/uid-c-pod");
}

inline void UsageIsThePodsReadingsInTheWindow(LiveInventoryRepository& inventory, UsageWriteRepository& usage,
                                              UsageRollupRepository& rollups, const AttributionFactsRepository& facts) {
  WriteFacts(inventory, usage);
  RollUpFacts(rollups);
  const auto read = FactsOf(facts, "c1", At(0), At(120));
  // Not the minute before the window, the one at its end, the one without a
  // reading, nor the device's own row.
  EXPECT_EQ(read.usage,
            (std::vector<UsedMinuteRecord>{
                {"uid-a", "GPU-0", At(0), 429}, {"uid-a", "GPU-0", At(1), 0}, {"uid-b", "GPU-0", At(119), 250}}));
  EXPECT_EQ(FactsOf(facts, "c2", At(0), At(60)).usage,
            (std::vector<UsedMinuteRecord>{{"uid-c", "GPU-0", At(0), 1000}}));
}

inline void HoldFactsAreTheFactsWithoutTheUsage(LiveInventoryRepository& inventory, UsageWriteRepository& usage,
                                                UsageRollupRepository& rollups,
                                                const AttributionFactsRepository& facts) {
  WriteFacts(inventory, usage);
  RollUpFacts(rollups);
  AttributionFactsRecord all = FactsOf(facts, "c1", At(0), At(120));
  ASSERT_FALSE(all.usage.empty());
  auto held = facts.HoldFacts("c1", At(0), At(120));
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_TRUE(held->usage.empty());
  EXPECT_EQ(held->devices, all.devices);
  EXPECT_EQ(held->holds, all.holds);
  EXPECT_EQ(facts.HoldFacts("c1", At(60), At(0)).status().code(), absl::StatusCode::kInvalidArgument);
}

inline void AnEmptyWindowHasNoFacts(LiveInventoryRepository& inventory, UsageWriteRepository& usage,
                                    UsageRollupRepository& rollups, const AttributionFactsRepository& facts) {
  WriteFacts(inventory, usage);
  RollUpFacts(rollups);
  const auto read = FactsOf(facts, "c1", At(60), At(60));
  EXPECT_TRUE(read.devices.empty());
  EXPECT_TRUE(read.holds.empty());
  EXPECT_TRUE(read.usage.empty());
  auto backwards = facts.Facts("c1", At(60), At(0));
  EXPECT_EQ(backwards.status().code(), absl::StatusCode::kInvalidArgument);
}

inline void ClustersStartWithTheirFirstDeviceInService(LiveInventoryRepository& inventory, UsageWriteRepository& usage,
                                                       const AttributionFactsRepository& facts) {
  auto none = facts.Clusters();
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  WriteFacts(inventory, usage);
  InventoryChanges later;
  later.cluster = "c0";
  later.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
  later.devices = {{"GPU-7", "node-7", 0, "H100", At(30), At(30)},
                   {"GPU-8", "node-8", 0, "H100", At(75), std::nullopt}};
  ASSERT_TRUE(inventory.Apply(later).ok());
  InventoryChanges empty;
  empty.cluster = "c3";
  empty.types = later.types;
  empty.devices = {{"GPU-9", "node-9", 0, "H100", At(5), At(5)}};  // no length: no history
  ASSERT_TRUE(inventory.Apply(empty).ok());
  auto read = facts.Clusters();
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, (std::vector<ClusterHistoryRecord>{
                       {"c0", At(75)}, {"c1", At(-600)}, {"c2", At(-600)}, {"c3", std::nullopt}}));
}

inline void UsageIsSeenAfterItsHourIsRolledUp(LiveInventoryRepository& inventory, UsageWriteRepository& usage,
                                              UsageRollupRepository& rollups, const AttributionFactsRepository& facts) {
  WriteFacts(inventory, usage);
  EXPECT_TRUE(FactsOf(facts, "c1", At(0), At(120)).usage.empty()) << "nothing rolled up yet";
  // Only the hours of the window rolled up: [At(0), At(60)).
  ASSERT_TRUE(rollups.RollUp("c1", At(0), At(60)).ok());
  EXPECT_EQ(FactsOf(facts, "c1", At(0), At(120)).usage,
            (std::vector<UsedMinuteRecord>{{"uid-a", "GPU-0", At(0), 429}, {"uid-a", "GPU-0", At(1), 0}}));

  // Minutes written after the rollup (a late one, a corrected one) are seen
  // after the next rollup of their hour only.
  using usage_contract::PodRow;
  const int64_t minute = usage_contract::kMinute;
  ASSERT_TRUE(usage
                  .WriteMinutes("c1",
                                {PodRow("GPU-0", "uid-a", "uid-a-pod", usage_contract::kT0 + 5 * minute, 0.3),
                                 PodRow("GPU-0", "uid-a", "uid-a-pod", usage_contract::kT0, 0.5)},
                                "pull")
                  .ok());
  EXPECT_EQ(FactsOf(facts, "c1", At(0), At(60)).usage,
            (std::vector<UsedMinuteRecord>{{"uid-a", "GPU-0", At(0), 429}, {"uid-a", "GPU-0", At(1), 0}}));
  ASSERT_TRUE(rollups.RollUp("c1", At(0), At(120)).ok());
  EXPECT_EQ(FactsOf(facts, "c1", At(0), At(120)).usage,
            (std::vector<UsedMinuteRecord>{{"uid-a", "GPU-0", At(0), 500},
                                           {"uid-a", "GPU-0", At(1), 0},
                                           {"uid-a", "GPU-0", At(5), 300},
                                           {"uid-b", "GPU-0", At(119), 250}}));
  // Rolling up again changes nothing.
  ASSERT_TRUE(rollups.RollUp("c1", At(0), At(120)).ok());
  EXPECT_EQ(FactsOf(facts, "c1", At(0), At(120)).usage.size(), 4u);
  EXPECT_EQ(rollups.RollUp("c1", At(60), At(0)).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace fleetcap::store::attribution_facts_contract

// Instantiates the contract as tests of fixture `Fixture`, whose
// `inventory()`, `usage()` (made with usage_contract::AtT0()'s options),
// `rollups()` and `facts()` are fresh repositories over one store per test.
#define FLEETCAP_ATTRIBUTION_FACTS_CONTRACT_TESTS(Fixture)                                                            \
  TEST_F(Fixture, DevicesInServiceAreClippedToTheWindow) {                                                            \
    ::fleetcap::store::attribution_facts_contract::DevicesInServiceAreClippedToTheWindow(inventory(), usage(),        \
                                                                                         rollups(), facts());         \
  }                                                                                                                   \
  TEST_F(Fixture, HoldsCarryTheirPodsNamespaceTeamLabelAndWorkload) {                                                 \
    ::fleetcap::store::attribution_facts_contract::HoldsCarryTheirPodsNamespaceTeamLabelAndWorkload(                  \
        inventory(), usage(), rollups(), facts());                                                                    \
  }                                                                                                                   \
  TEST_F(Fixture, HoldFactsAreTheFactsWithoutTheUsage) {                                                              \
    ::fleetcap::store::attribution_facts_contract::HoldFactsAreTheFactsWithoutTheUsage(inventory(), usage(),          \
                                                                                       rollups(), facts());           \
  }                                                                                                                   \
  TEST_F(Fixture, UsageIsThePodsReadingsInTheWindow) {                                                                \
    ::fleetcap::store::attribution_facts_contract::UsageIsThePodsReadingsInTheWindow(inventory(), usage(), rollups(), \
                                                                                     facts());                        \
  }                                                                                                                   \
  TEST_F(Fixture, UsageIsSeenAfterItsHourIsRolledUp) {                                                                \
    ::fleetcap::store::attribution_facts_contract::UsageIsSeenAfterItsHourIsRolledUp(inventory(), usage(), rollups(), \
                                                                                     facts());                        \
  }                                                                                                                   \
  TEST_F(Fixture, AnEmptyWindowHasNoFacts) {                                                                          \
    ::fleetcap::store::attribution_facts_contract::AnEmptyWindowHasNoFacts(inventory(), usage(), rollups(), facts()); \
  }                                                                                                                   \
  TEST_F(Fixture, ClustersStartWithTheirFirstDeviceInService) {                                                       \
    ::fleetcap::store::attribution_facts_contract::ClustersStartWithTheirFirstDeviceInService(inventory(), usage(),   \
                                                                                              facts());               \
  }
