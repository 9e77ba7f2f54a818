#pragma once
// The behaviour every CapacityReadRepository promises, as test steps shared
// by the in-memory form's unit test and the PostgreSQL integration test.
// Each step takes the test's fixture `f`, which gives a fresh, empty store
// per test: `f.repo()` reads it and `f.AddDevice(cluster, model, from, to)`
// records one device's interval in service (`to` nullopt: still in service).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "store/capacity_repository.h"
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
  }
