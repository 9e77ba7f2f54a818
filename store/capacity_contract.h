#pragma once
// The behaviour every CapacityReadRepository promises, as test steps shared
// by the in-memory form's unit test and the PostgreSQL integration test.
// Each step takes the test's fixture `f`, which gives a fresh, empty store
// per test: `f.repo()` reads it and `f.AddDevice(cluster, model, from, to)`
// records one device's interval in service (`to` nullopt: still in service);
// `f.AddAssetDevice(cluster, device)`, `f.AddHold(cluster, hold)` and
// `f.AddPod(cluster, pod)` record the inventory's facts the asset reads sum.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "store/capacity_repository.h"
#include "store/inventory.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::capacity_contract {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kCapacityT0 = absl::FromUnixSeconds(1'772'323'200);  // 2026-03-01T00:00:00Z
constexpr int64_t kHourMilli = 3'600'000;

inline CapacityFilter Hours(int n, const std::string& cluster = "", const std::string& model = "") {
  CapacityFilter f;
  f.start = kCapacityT0;
  f.end = kCapacityT0 + absl::Hours(n);
  f.width = absl::Hours(1);
  f.cluster = cluster;
  f.model = model;
  return f;
}

inline CapacityPoint Point(int hour, const std::string& cluster, const std::string& model, int64_t milli) {
  return {kCapacityT0 + absl::Hours(hour), cluster, model, milli};
}

// Devices x seconds x 1000 per (cluster, model, bucket), ordered by
// (cluster, model, start); parts of buckets count, empty buckets are left out.
template <typename Fixture>
void DeviceTimeIsSummedPerClusterModelAndBucket(Fixture& f) {
  f.AddDevice("c1", "H100", kCapacityT0 - absl::Hours(1), std::nullopt);
  f.AddDevice("c1", "H100", kCapacityT0 + absl::Minutes(30), kCapacityT0 + absl::Minutes(90));
  f.AddDevice("c1", "A100", kCapacityT0 + absl::Hours(2), kCapacityT0 + absl::Minutes(150));
  f.AddDevice("c2", "H100", kCapacityT0, kCapacityT0 + absl::Hours(1));
  auto points = f.repo().DeviceTime(Hours(4));
  ASSERT_THAT(points, IsOk());
  EXPECT_EQ(*points, (std::vector<CapacityPoint>{
                         Point(2, "c1", "A100", kHourMilli / 2),
                         Point(0, "c1", "H100", kHourMilli * 3 / 2),
                         Point(1, "c1", "H100", kHourMilli * 3 / 2),
                         Point(2, "c1", "H100", kHourMilli),
                         Point(3, "c1", "H100", kHourMilli),
                         Point(0, "c2", "H100", kHourMilli),
                     }));
}

template <typename Fixture>
void DeviceTimeKeepsToTheClusterAndModelAsked(Fixture& f) {
  f.AddDevice("c1", "H100", kCapacityT0, std::nullopt);
  f.AddDevice("c1", "A100", kCapacityT0, std::nullopt);
  f.AddDevice("c2", "H100", kCapacityT0, std::nullopt);
  auto c1 = f.repo().DeviceTime(Hours(1, "c1"));
  ASSERT_THAT(c1, IsOk());
  EXPECT_EQ(*c1, (std::vector<CapacityPoint>{Point(0, "c1", "A100", kHourMilli), Point(0, "c1", "H100", kHourMilli)}));
  auto h100 = f.repo().DeviceTime(Hours(1, "", "H100"));
  ASSERT_THAT(h100, IsOk());
  EXPECT_EQ(*h100,
            (std::vector<CapacityPoint>{Point(0, "c1", "H100", kHourMilli), Point(0, "c2", "H100", kHourMilli)}));
  auto one = f.repo().DeviceTime(Hours(1, "c2", "A100"));
  ASSERT_THAT(one, IsOk());
  EXPECT_TRUE(one->empty());
}

// A device out of service before the window, from its end, or only at its
// very start counts nothing; wider buckets add their parts up.
template <typename Fixture>
void OnlyTimeInsideTheWindowCounts(Fixture& f) {
  f.AddDevice("c1", "H100", kCapacityT0 - absl::Hours(2), kCapacityT0);
  f.AddDevice("c1", "H100", kCapacityT0 + absl::Hours(6), std::nullopt);
  f.AddDevice("c1", "H100", kCapacityT0 - absl::Hours(1), kCapacityT0 + absl::Minutes(1));
  f.AddDevice("c1", "H100", kCapacityT0 + absl::Hours(5), kCapacityT0 + absl::Hours(7));
  CapacityFilter wide = Hours(6);
  wide.width = absl::Hours(3);
  auto points = f.repo().DeviceTime(wide);
  ASSERT_THAT(points, IsOk());
  EXPECT_EQ(*points, (std::vector<CapacityPoint>{Point(0, "c1", "H100", 60'000), Point(3, "c1", "H100", kHourMilli)}));
  CapacityFilter empty = Hours(0);
  auto none = f.repo().DeviceTime(empty);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
}

template <typename Fixture>
void WindowsOfPartBucketsAreRefused(Fixture& f) {
  f.AddDevice("c1", "H100", kCapacityT0, std::nullopt);
  CapacityFilter bad = Hours(2);
  bad.width = absl::ZeroDuration();
  EXPECT_THAT(f.repo().DeviceTime(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("width")));
  bad = Hours(2);
  bad.end = bad.start - absl::Hours(1);
  EXPECT_THAT(f.repo().DeviceTime(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ends before")));
  bad = Hours(2);
  bad.end += absl::Minutes(1);
  EXPECT_THAT(f.repo().DeviceTime(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("whole number")));
}

inline Device AssetDevice(const std::string& id, const std::string& node, const std::string& model, absl::Time from,
                          std::optional<absl::Time> to = std::nullopt) {
  Device d;
  d.device_id = id;
  d.node = node;
  d.model = model;
  d.in_service_from = from;
  d.in_service_to = to;
  return d;
}

inline Hold AssetHold(const std::string& pod, const std::string& device, int32_t milli, absl::Time from,
                      std::optional<absl::Time> to = std::nullopt) {
  return {pod, device, milli, from, to};
}

inline AssetFilter AssetHours(int n, AssetLevel level) {
  AssetFilter f;
  f.start = kCapacityT0;
  f.end = kCapacityT0 + absl::Hours(n);
  f.level = level;
  return f;
}

inline AssetTime Asset(const std::string& model, const std::string& cluster, const std::string& node,
                       const std::string& device, int64_t devices, int64_t capacity, int64_t held, int64_t idle) {
  return {model, cluster, node, device, devices, capacity, held, idle};
}

// Two hours of a small fleet: c1 has node n1 (two A100, one of them half
// held for an hour by two pods) and node n2 (an H100 that left after 30
// minutes, held all of that time); c2 has an A100 in service from the
// second hour, held a quarter for 90 minutes from before the window.
template <typename Fixture>
void AddSmallFleet(Fixture& f) {
  const absl::Time t = kCapacityT0;
  f.AddAssetDevice("c1", AssetDevice("g0", "n1", "A100", t - absl::Hours(5)));
  f.AddAssetDevice("c1", AssetDevice("g1", "n1", "A100", t - absl::Hours(5), t + absl::Hours(9)));
  f.AddAssetDevice("c1", AssetDevice("h0", "n2", "H100", t - absl::Hours(1), t + absl::Minutes(30)));
  f.AddAssetDevice("c2", AssetDevice("g0", "m1", "A100", t + absl::Hours(1)));
  f.AddHold("c1", AssetHold("p1", "g0", 250, t + absl::Minutes(30), t + absl::Minutes(90)));
  f.AddHold("c1", AssetHold("p2", "g0", 250, t + absl::Minutes(30), t + absl::Minutes(90)));
  f.AddHold("c1", AssetHold("p3", "h0", 1000, t - absl::Hours(1), t + absl::Minutes(30)));
  f.AddHold("c2", AssetHold("q1", "g0", 250, t - absl::Minutes(30), std::nullopt));
}

// Capacity is the intervals in service clipped to the window, held the
// holds clipped to those intervals, idle the difference; each level keys
// by its own fields and those above it, ordered by them.
template <typename Fixture>
void AssetTimesAreSummedPerLevel(Fixture& f) {
  AddSmallFleet(f);
  constexpr int64_t kHour = kHourMilli;
  auto devices = f.repo().AssetTimes(AssetHours(2, AssetLevel::kDevice));
  ASSERT_THAT(devices, IsOk());
  EXPECT_EQ(*devices, (std::vector<AssetTime>{
                          Asset("A100", "c1", "n1", "g0", 1, 2 * kHour, kHour / 2, 2 * kHour - kHour / 2),
                          Asset("A100", "c1", "n1", "g1", 1, 2 * kHour, 0, 2 * kHour),
                          Asset("A100", "c2", "m1", "g0", 1, kHour, kHour / 4, kHour - kHour / 4),
                          Asset("H100", "c1", "n2", "h0", 1, kHour / 2, kHour / 2, 0),
                      }));
  auto nodes = f.repo().AssetTimes(AssetHours(2, AssetLevel::kNode));
  ASSERT_THAT(nodes, IsOk());
  EXPECT_EQ(*nodes, (std::vector<AssetTime>{
                        Asset("A100", "c1", "n1", "", 2, 4 * kHour, kHour / 2, 4 * kHour - kHour / 2),
                        Asset("A100", "c2", "m1", "", 1, kHour, kHour / 4, kHour - kHour / 4),
                        Asset("H100", "c1", "n2", "", 1, kHour / 2, kHour / 2, 0),
                    }));
  auto clusters = f.repo().AssetTimes(AssetHours(2, AssetLevel::kCluster));
  ASSERT_THAT(clusters, IsOk());
  EXPECT_EQ(*clusters, (std::vector<AssetTime>{
                           Asset("", "c1", "", "", 3, 4 * kHour + kHour / 2, kHour, 4 * kHour - kHour / 2),
                           Asset("", "c2", "", "", 1, kHour, kHour / 4, kHour - kHour / 4),
                       }));
  auto models = f.repo().AssetTimes(AssetHours(2, AssetLevel::kModel));
  ASSERT_THAT(models, IsOk());
  // c1's g0 and c2's g0 are two devices.
  EXPECT_EQ(*models, (std::vector<AssetTime>{
                         Asset("A100", "", "", "", 3, 5 * kHour, kHour / 2 + kHour / 4, 5 * kHour - kHour * 3 / 4),
                         Asset("H100", "", "", "", 1, kHour / 2, kHour / 2, 0),
                     }));
}

template <typename Fixture>
void AssetTimesKeepToTheFiltersAndTheWindow(Fixture& f) {
  AddSmallFleet(f);
  AssetFilter one = AssetHours(2, AssetLevel::kDevice);
  one.cluster = "c1";
  one.node = "n1";
  one.model = "A100";
  auto n1 = f.repo().AssetTimes(one);
  ASSERT_THAT(n1, IsOk());
  ASSERT_EQ(n1->size(), 2u);
  EXPECT_EQ((*n1)[0].device, "g0");
  EXPECT_EQ((*n1)[1].device, "g1");
  one.model = "H100";
  auto none = f.repo().AssetTimes(one);
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
  // Before c2's device came, and after every hold ended.
  AssetFilter late = AssetHours(1, AssetLevel::kDevice);
  late.start += absl::Hours(2);
  late.end += absl::Hours(2);
  auto after = f.repo().AssetTimes(late);
  ASSERT_THAT(after, IsOk());
  EXPECT_EQ(*after, (std::vector<AssetTime>{
                        Asset("A100", "c1", "n1", "g0", 1, kHourMilli, 0, kHourMilli),
                        Asset("A100", "c1", "n1", "g1", 1, kHourMilli, 0, kHourMilli),
                        Asset("A100", "c2", "m1", "g0", 1, kHourMilli, kHourMilli / 4, kHourMilli * 3 / 4),
                    }));
  AssetFilter empty = AssetHours(0, AssetLevel::kModel);
  auto nothing = f.repo().AssetTimes(empty);
  ASSERT_THAT(nothing, IsOk());
  EXPECT_TRUE(nothing->empty());
  AssetFilter backwards = AssetHours(1, AssetLevel::kModel);
  backwards.end = backwards.start - absl::Hours(1);
  EXPECT_THAT(f.repo().AssetTimes(backwards), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ends before")));
}

// A device held past its whole (two pods of 1000 milli) idles not at all,
// and its excess is not taken from the idle of its node's other device; a
// hold outside the device's time in service counts nothing.
template <typename Fixture>
void AnOverHeldDeviceIdlesNotAtAll(Fixture& f) {
  const absl::Time t = kCapacityT0;
  f.AddAssetDevice("c1", AssetDevice("g0", "n1", "A100", t));
  f.AddAssetDevice("c1", AssetDevice("g1", "n1", "A100", t));
  f.AddAssetDevice("c1", AssetDevice("g2", "n1", "A100", t + absl::Hours(1)));
  f.AddHold("c1", AssetHold("p1", "g0", 1000, t));
  f.AddHold("c1", AssetHold("p2", "g0", 1000, t));
  f.AddHold("c1", AssetHold("p3", "g2", 1000, t, t + absl::Hours(1)));
  auto nodes = f.repo().AssetTimes(AssetHours(1, AssetLevel::kNode));
  ASSERT_THAT(nodes, IsOk());
  EXPECT_EQ(*nodes,
            (std::vector<AssetTime>{Asset("A100", "c1", "n1", "", 2, 2 * kHourMilli, 2 * kHourMilli, kHourMilli)}));
}

// The holds of one device overlapping the window, clipped to it, earliest
// first, with their pods (empty for a pod never stored), at most as many as asked.
template <typename Fixture>
void DeviceHoldsAreClippedWithTheirPods(Fixture& f) {
  AddSmallFleet(f);
  const absl::Time t = kCapacityT0;
  Pod pod;
  pod.uid = "p1";
  pod.namespace_name = "ml";
  pod.name = "train-0";
  pod.team = "vision";
  pod.workload_kind = "Job";
  pod.workload_name = "train";
  pod.created = t - absl::Hours(1);
  f.AddPod("c1", pod);
  f.AddHold("c1", AssetHold("p0", "g0", 500, t - absl::Hours(3), t - absl::Hours(2)));
  auto holds = f.repo().DeviceHolds("c1", "g0", t + absl::Hours(1), t + absl::Hours(2));
  ASSERT_THAT(holds, IsOk());
  DeviceHoldTime first{"p1", "train-0", "ml", "Job", "train", "vision", 250, t + absl::Hours(1), t + absl::Minutes(90)};
  DeviceHoldTime second{"p2", "", "", "", "", "", 250, t + absl::Hours(1), t + absl::Minutes(90)};
  EXPECT_EQ(*holds, (std::vector<DeviceHoldTime>{first, second}));
  auto one = f.repo().DeviceHolds("c1", "g0", t + absl::Hours(1), t + absl::Hours(2), 1);
  ASSERT_THAT(one, IsOk());
  EXPECT_EQ(*one, (std::vector<DeviceHoldTime>{first}));
  // The open hold of c2's g0 ends at the window's end; c1's g0 is another device.
  auto open = f.repo().DeviceHolds("c2", "g0", t, t + absl::Hours(2));
  ASSERT_THAT(open, IsOk());
  EXPECT_EQ(*open, (std::vector<DeviceHoldTime>{{"q1", "", "", "", "", "", 250, t, t + absl::Hours(2)}}));
  auto none = f.repo().DeviceHolds("c1", "nope", t, t + absl::Hours(2));
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
  EXPECT_THAT(f.repo().DeviceHolds("c1", "g0", t, t - absl::Hours(1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ends before")));
}

}  // namespace fleetcap::store::capacity_contract

// Instantiates the contract as tests of fixture `Fixture` (see above).
#define FLEETCAP_CAPACITY_CONTRACT_TESTS(Fixture)                                            \
  TEST_F(Fixture, DeviceTimeIsSummedPerClusterModelAndBucket) {                              \
    ::fleetcap::store::capacity_contract::DeviceTimeIsSummedPerClusterModelAndBucket(*this); \
  }                                                                                          \
  TEST_F(Fixture, DeviceTimeKeepsToTheClusterAndModelAsked) {                                \
    ::fleetcap::store::capacity_contract::DeviceTimeKeepsToTheClusterAndModelAsked(*this);   \
  }                                                                                          \
  TEST_F(Fixture, OnlyTimeInsideTheWindowCounts) {                                           \
    ::fleetcap::store::capacity_contract::OnlyTimeInsideTheWindowCounts(*this);              \
  }                                                                                          \
  TEST_F(Fixture, WindowsOfPartBucketsAreRefused) {                                          \
    ::fleetcap::store::capacity_contract::WindowsOfPartBucketsAreRefused(*this);             \
  }                                                                                          \
  TEST_F(Fixture, AssetTimesAreSummedPerLevel) {                                             \
    ::fleetcap::store::capacity_contract::AssetTimesAreSummedPerLevel(*this);                \
  }                                                                                          \
  TEST_F(Fixture, AssetTimesKeepToTheFiltersAndTheWindow) {                                  \
    ::fleetcap::store::capacity_contract::AssetTimesKeepToTheFiltersAndTheWindow(*this);     \
  }                                                                                          \
  TEST_F(Fixture, AnOverHeldDeviceIdlesNotAtAll) {                                           \
    ::fleetcap::store::capacity_contract::AnOverHeldDeviceIdlesNotAtAll(*this);              \
  }                                                                                          \
  TEST_F(Fixture, DeviceHoldsAreClippedWithTheirPods) {                                      \
    ::fleetcap::store::capacity_contract::DeviceHoldsAreClippedWithTheirPods(*this);         \
  }
