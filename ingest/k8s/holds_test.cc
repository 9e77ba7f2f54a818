#include "ingest/k8s/holds.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::k8s {
namespace {

using ::testing::ElementsAre;

const absl::Time kT0 = absl::FromUnixSeconds(1767225600);
absl::Time At(int seconds) { return kT0 + absl::Seconds(seconds); }

PodObject Bound(const std::string& phase) {
  PodObject pod;
  pod.name = "p";
  pod.node_name = "n1";
  pod.phase = phase;
  pod.created = At(0);
  pod.containers.resize(1);
  return pod;
}

TEST(TimesOf, UnboundPodHoldsNothing) {
  PodObject pod = Bound("Pending");
  pod.node_name.clear();
  PodTimes t = TimesOf(pod, At(100));
  EXPECT_FALSE(t.bound);
  EXPECT_FALSE(t.hold_from.has_value());
}

TEST(TimesOf, HoldStartsWhenContainersStartNotWhenSeen) {
  PodObject pod = Bound("Running");
  pod.scheduled_at = At(2);
  pod.start_time = At(3);
  pod.first_started = At(10);
  PodTimes t = TimesOf(pod, At(1000));
  EXPECT_TRUE(t.bound);
  EXPECT_EQ(t.hold_from, At(10));
  EXPECT_EQ(t.scheduled, At(2));
  EXPECT_FALSE(t.hold_to.has_value());
}

TEST(TimesOf, BoundButNotStartedHasNoHoldYet) {
  PodObject pod = Bound("Pending");
  pod.scheduled_at = At(2);
  PodTimes t = TimesOf(pod, At(5));
  EXPECT_TRUE(t.bound);
  EXPECT_EQ(t.scheduled, At(2));
  EXPECT_FALSE(t.hold_from.has_value());
}

TEST(TimesOf, RunningWithoutContainerTimesFallsBack) {
  PodObject pod = Bound("Running");
  pod.start_time = At(3);
  EXPECT_EQ(TimesOf(pod, At(9)).hold_from, At(3));
  pod.start_time.reset();
  pod.scheduled_at = At(2);
  EXPECT_EQ(TimesOf(pod, At(9)).hold_from, At(2));
  pod.scheduled_at.reset();
  EXPECT_EQ(TimesOf(pod, At(9)).hold_from, At(0));
}

TEST(TimesOf, TerminatedPodEndsAtLastFinish) {
  PodObject pod = Bound("Succeeded");
  pod.first_started = At(10);
  pod.last_finished = At(70);
  PodTimes t = TimesOf(pod, At(1000));
  EXPECT_EQ(t.hold_from, At(10));
  EXPECT_EQ(t.hold_to, At(70));
  // Failed before any container started: never held.
  PodObject evicted = Bound("Failed");
  EXPECT_FALSE(TimesOf(evicted, At(5)).hold_from.has_value());
}

TEST(DeletionTime, FinishedAtThenDeletionTimestampThenObserved) {
  PodObject pod = Bound("Running");
  EXPECT_EQ(DeletionTime(pod, At(100)), At(100));
  pod.deletion = At(80);
  EXPECT_EQ(DeletionTime(pod, At(100)), At(80));
  EXPECT_EQ(DeletionTime(pod, At(50)), At(50));  // a grace deadline later than the deletion seen
  pod.containers_terminated = 1;
  pod.last_finished = At(75);
  EXPECT_EQ(DeletionTime(pod, At(100)), At(75));
}

PodDemand Units(int64_t count, int32_t milli, bool whole) {
  PodDemand d;
  d.units.push_back({"nvidia.com/gpu", count, {milli, whole}});
  return d;
}

TEST(AssignDevices, WholeUnitsTakeLowestFreeDevices) {
  Assignment a = AssignDevices({0, 300, 0, 0}, Units(2, 1000, true));
  EXPECT_THAT(a.shares, ElementsAre(DeviceShare{0, 1000}, DeviceShare{2, 1000}));
  EXPECT_FALSE(a.overcommitted);
  EXPECT_EQ(a.unplaced_milli, 0);
}

TEST(AssignDevices, SharedUnitsTakeLowestDeviceWithRoomAndMerge) {
  Assignment a = AssignDevices({800, 500, 0}, Units(2, 250, false));
  EXPECT_THAT(a.shares, ElementsAre(DeviceShare{1, 500}));
  // MIG slices: three 3/7 slices fill two GPUs as the hardware does.
  a = AssignDevices({0, 0}, Units(3, 428, false));
  EXPECT_THAT(a.shares, ElementsAre(DeviceShare{0, 856}, DeviceShare{1, 428}));
}

TEST(AssignDevices, PinnedIndicesFromTheAnnotation) {
  PodDemand d = Units(1, 460, false);
  d.device_indices = {1};
  EXPECT_THAT(AssignDevices({0, 0}, d).shares, ElementsAre(DeviceShare{1, 460}));
  d.device_indices = {5};  // beyond the node: ignored
  EXPECT_THAT(AssignDevices({0, 0}, d).shares, ElementsAre(DeviceShare{0, 460}));
}

TEST(AssignDevices, OvercommitGoesToTheLeastLoadedAndIsReported) {
  Assignment a = AssignDevices({900, 700}, Units(1, 500, false));
  EXPECT_THAT(a.shares, ElementsAre(DeviceShare{1, 500}));
  EXPECT_TRUE(a.overcommitted);
}

TEST(AssignDevices, AWholeDeviceIsNeverGivenTwice) {
  Assignment a = AssignDevices({1000, 300}, Units(1, 1000, true));
  EXPECT_TRUE(a.shares.empty());
  EXPECT_FALSE(a.overcommitted);
  EXPECT_EQ(a.unplaced_milli, 1000);
}

TEST(AssignDevices, MoreThanTheNodeHasIsUnplaced) {
  Assignment a = AssignDevices({0, 0}, Units(3, 1000, true));
  EXPECT_EQ(a.shares.size(), 2u);
  EXPECT_EQ(a.unplaced_milli, 1000);
  EXPECT_EQ(AssignDevices({}, Units(1, 1000, true)).unplaced_milli, 1000);
}

// A quantity the API server accepts, far beyond any node: one pass over the
// node's devices, not one per unit asked for.
TEST(AssignDevices, BillionsOfUnitsCostOnePassOverTheDevices) {
  Assignment a = AssignDevices({0, 0}, Units(int64_t{9223372036854775}, 1000, true));
  EXPECT_EQ(a.shares.size(), 2u);
  EXPECT_EQ(a.unplaced_milli, int64_t{9223372036854773000});
  a = AssignDevices({0, 0}, Units(int64_t{1} << 40, 250, false));
  EXPECT_THAT(a.shares, ElementsAre(DeviceShare{0, 1000}, DeviceShare{1, 1000}));
  EXPECT_EQ(a.unplaced_milli, ((int64_t{1} << 40) - 8) * 250);
}

}  // namespace
}  // namespace fleetcap::k8s
