#include "ingest/openb/sampled_load.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tests/support/status_matchers.h"

namespace fleetcap::openb {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// 2026-11-02T00:00:00Z, a Monday.
constexpr int64_t kMondayUnixS = 1793577600;
constexpr int64_t kDayS = 86400;

OpenbNode SampleNode(std::string name, std::string model, int32_t gpus) {
  OpenbNode node;
  node.name = std::move(name);
  node.model = std::move(model);
  node.gpus = gpus;
  return node;
}

OpenbPod SourcePod(std::string name, int32_t num_gpu, int32_t gpu_milli, int64_t run_s) {
  OpenbPod pod;
  pod.name = std::move(name);
  pod.cpu_milli = 4000;
  pod.memory_mib = 8192;
  pod.num_gpu = num_gpu;
  pod.gpu_milli = gpu_milli;
  pod.phase = "Succeeded";
  pod.scheduled_s = 100;
  pod.deletion_s = 100 + run_s;
  return pod;
}

// 100 two-GPU T4 nodes and 4 eight-GPU V100 nodes; pods of one, a share of
// one, two and eight GPUs (the last fits only the V100 nodes).
OpenbTrace SourceTrace() {
  OpenbTrace trace;
  for (int n = 0; n < 100; ++n) trace.nodes.push_back(SampleNode("t4-" + std::to_string(1000 + n), "T4", 2));
  for (int n = 0; n < 4; ++n) trace.nodes.push_back(SampleNode("v100-" + std::to_string(n), "V100", 8));
  trace.pods = {SourcePod("openb-pod-0000", 1, 1000, 2 * 3600), SourcePod("openb-pod-0001", 1, 500, 3600),
                SourcePod("openb-pod-0002", 2, 1000, 4 * 3600), SourcePod("openb-pod-0003", 8, 1000, 3 * 3600),
                SourcePod("openb-pod-0004", 0, 0, 3600)};
  return trace;
}

LoadSampleOptions Options(int64_t days) {
  LoadSampleOptions options;
  options.seed = 7;
  options.start_unix_s = kMondayUnixS;
  options.window_s = days * kDayS;
  options.targets = {{"T4", 0.70}, {"V100", 0.95}};
  options.max_duration_s = kDayS;
  return options;
}

SampledLoad Sample(const LoadSampleOptions& options) {
  auto load = SampleLoad(SourceTrace(), options);
  EXPECT_THAT(load.status(), IsOk());
  return load.ok() ? *std::move(load) : SampledLoad{};
}

std::vector<std::tuple<size_t, size_t, int32_t, int32_t, int64_t, std::optional<int64_t>>> HoldRows(
    const SampledLoad& load) {
  std::vector<std::tuple<size_t, size_t, int32_t, int32_t, int64_t, std::optional<int64_t>>> rows;
  for (const GpuHold& hold : load.placement.holds) {
    rows.emplace_back(hold.pod, hold.node, hold.gpu, hold.milli, hold.start_s, hold.end_s);
  }
  return rows;
}

const FlavorOutcome& FlavorOf(const SampledLoad& load, const std::string& model) {
  for (const FlavorOutcome& flavor : load.flavors) {
    if (flavor.model == model) return flavor;
  }
  static const FlavorOutcome kNone;
  ADD_FAILURE() << "no flavor " << model;
  return kNone;
}

TEST(SampleLoad, TheSameSeedGivesTheSameLoadAndAnotherSeedAnother) {
  const SampledLoad first = Sample(Options(7));
  const SampledLoad again = Sample(Options(7));
  ASSERT_THAT(first.trace.pods, Not(IsEmpty()));
  ASSERT_EQ(first.trace.pods.size(), again.trace.pods.size());
  for (size_t p = 0; p < first.trace.pods.size(); ++p) {
    EXPECT_EQ(first.trace.pods[p].name, again.trace.pods[p].name);
    EXPECT_EQ(first.trace.pods[p].creation_s, again.trace.pods[p].creation_s);
    EXPECT_EQ(first.trace.pods[p].deletion_s, again.trace.pods[p].deletion_s);
  }
  EXPECT_EQ(HoldRows(first), HoldRows(again));
  EXPECT_EQ(first.source, again.source);

  LoadSampleOptions other = Options(7);
  other.seed = 8;
  EXPECT_NE(HoldRows(first), HoldRows(Sample(other)));
}

TEST(SampleLoad, EachFlavorHoldsItsTargetShareOverTheLastDay) {
  const LoadSampleOptions options = Options(7);
  const SampledLoad load = Sample(options);
  const FlavorOutcome& t4 = FlavorOf(load, "T4");
  EXPECT_NEAR(t4.held_share_last_day, 0.70, options.tolerance);
  EXPECT_NEAR(HeldShare(load, "T4", options.window_s - kDayS, options.window_s), t4.held_share_last_day, 1e-9);
  EXPECT_EQ(t4.capacity_milli, 200'000);
  // The 8-GPU pods fragment the V100 nodes: they hold less than asked, but most of them.
  EXPECT_GT(FlavorOf(load, "V100").held_share_last_day, 0.6);
  // The load is held from the window's first day on, not only at its end.
  EXPECT_GT(HeldShare(load, "T4", 0, kDayS), 0.5);
}

TEST(SampleLoad, ArrivalsFollowTheDailyAndWeeklySeasonsAndTheTrend) {
  LoadSampleOptions options = Options(28);
  options.trend_per_30_days = 0.3;
  const SampledLoad load = Sample(options);
  std::map<int, int64_t> by_hour, by_weekday;
  int64_t first_week = 0, last_week = 0;
  for (const OpenbPod& pod : load.trace.pods) {
    if (pod.creation_s <= 0) continue;  // started with the window, not arrived in it
    ++by_hour[static_cast<int>(pod.creation_s % kDayS / 3600)];
    ++by_weekday[static_cast<int>(pod.creation_s / kDayS % 7)];  // 0 = Monday
    if (pod.creation_s < 7 * kDayS) ++first_week;
    if (pod.creation_s >= 21 * kDayS) ++last_week;
  }
  const int64_t afternoon = by_hour[12] + by_hour[13] + by_hour[14] + by_hour[15] + by_hour[16];
  const int64_t night = by_hour[0] + by_hour[1] + by_hour[2] + by_hour[3] + by_hour[4];
  EXPECT_GT(afternoon, night * 3 / 2) << "afternoon " << afternoon << ", night " << night;
  const int64_t midweek = by_weekday[1] + by_weekday[2] + by_weekday[3];
  const int64_t weekend_and_friday = by_weekday[4] + by_weekday[5] + by_weekday[6];
  EXPECT_GT(midweek, weekend_and_friday * 11 / 10) << "Tue-Thu " << midweek << ", Fri-Sun " << weekend_and_friday;
  EXPECT_GT(last_week, first_week * 11 / 10) << "first week " << first_week << ", last " << last_week;
}

TEST(SampleLoad, PodsThatFindNoRoomWaitAsPendingDemand) {
  const LoadSampleOptions options = Options(7);
  const SampledLoad load = Sample(options);
  ASSERT_THAT(load.waits, Not(IsEmpty()));
  EXPECT_GT(FlavorOf(load, "V100").waits, 0);
  std::vector<bool> held(load.trace.pods.size(), false);
  for (const GpuHold& hold : load.placement.holds) held[hold.pod] = true;
  for (const PendingWait& wait : load.waits) {
    const OpenbPod& pod = load.trace.pods[wait.pod];
    EXPECT_FALSE(held[wait.pod]) << pod.name;
    EXPECT_EQ(load.placement.outcomes[wait.pod], PodOutcome::kNoRoom);
    EXPECT_FALSE(pod.scheduled_s.has_value());
    EXPECT_EQ(pod.phase, "Pending");
    EXPECT_EQ(wait.from_s, pod.creation_s);
    EXPECT_EQ(wait.to_s, pod.deletion_s);
    EXPECT_LE(wait.to_s.value_or(options.window_s) - wait.from_s, options.max_wait_s);
  }
  EXPECT_EQ(load.placement.unplaced.size(), load.waits.size());
}

TEST(SampleLoad, PodsRunningAtTheWindowsEndHoldOpenEndedOnTheirOwnFlavor) {
  const LoadSampleOptions options = Options(7);
  const SampledLoad load = Sample(options);
  int64_t open = 0;
  for (const GpuHold& hold : load.placement.holds) {
    const OpenbPod& pod = load.trace.pods[hold.pod];
    EXPECT_EQ(load.trace.nodes[hold.node].model, pod.gpu_spec) << pod.name;
    EXPECT_GE(hold.start_s, 0);
    EXPECT_LT(hold.start_s, options.window_s);
    EXPECT_EQ(hold.end_s, pod.deletion_s);
    if (!hold.end_s.has_value()) {
      ++open;
      EXPECT_EQ(pod.phase, "Running");
    } else {
      EXPECT_LE(*hold.end_s, options.window_s);
    }
  }
  EXPECT_GT(open, 0);
  EXPECT_NEAR(FlavorOf(load, "T4").held_share_now, 0.7, 0.15);
}

TEST(SampleLoad, SampledPodsCopyTheShapesOfTheTracesPods) {
  const OpenbTrace source = SourceTrace();
  const SampledLoad load = Sample(Options(7));
  ASSERT_EQ(load.source.size(), load.trace.pods.size());
  for (size_t p = 0; p < load.trace.pods.size(); ++p) {
    const OpenbPod& copy = load.trace.pods[p];
    const OpenbPod& original = source.pods[load.source[p]];
    EXPECT_EQ(copy.num_gpu, original.num_gpu);
    EXPECT_EQ(copy.gpu_milli, original.gpu_milli);
    EXPECT_EQ(copy.cpu_milli, original.cpu_milli);
    EXPECT_GT(copy.num_gpu, 0);
    if (copy.gpu_spec == "T4") {
      EXPECT_LE(copy.num_gpu, 2) << "wider than any T4 node";
    }
  }
  EXPECT_EQ(load.trace.pods.front().name, "openb-pod-0000000");
}

TEST(SampleLoad, ANodeStrideKeepsOneNodeInSoManyOfEachModel) {
  LoadSampleOptions options = Options(3);
  options.node_stride = 3;
  const SampledLoad load = Sample(options);
  std::map<std::string, int> nodes_by_model;
  for (const OpenbNode& node : load.trace.nodes) ++nodes_by_model[node.model];
  EXPECT_EQ(nodes_by_model["T4"], 34);   // 100 nodes: the 1st, 4th, ... 100th
  EXPECT_EQ(nodes_by_model["V100"], 2);  // 4 nodes: the 1st and 4th
  EXPECT_EQ(load.trace.nodes.front().name, "t4-1000");
  EXPECT_EQ(load.trace.nodes[1].name, "t4-1003");
  EXPECT_EQ(FlavorOf(load, "T4").capacity_milli, 68'000);
  EXPECT_NEAR(FlavorOf(load, "T4").held_share_last_day, 0.70, 0.05);
  for (const GpuHold& hold : load.placement.holds) ASSERT_LT(hold.node, load.trace.nodes.size());
}

TEST(SampleLoad, RefusesOptionsOutOfRange) {
  LoadSampleOptions options = Options(7);
  options.targets = {{"T4", 1.5}};
  EXPECT_THAT(SampleLoad(SourceTrace(), options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target of T4")));
  options = Options(7);
  options.window_s = 60;
  EXPECT_THAT(SampleLoad(SourceTrace(), options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("window")));
  options = Options(7);
  options.daily_amplitude = 1;
  EXPECT_THAT(SampleLoad(SourceTrace(), options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("amplitudes")));
  options = Options(7);
  options.node_stride = 0;
  EXPECT_THAT(SampleLoad(SourceTrace(), options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("node stride")));
  OpenbTrace no_gpu_pods = SourceTrace();
  no_gpu_pods.pods = {SourcePod("openb-pod-0000", 0, 0, 3600)};
  EXPECT_THAT(SampleLoad(no_gpu_pods, Options(7)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no pod")));
}

}  // namespace
}  // namespace fleetcap::openb
