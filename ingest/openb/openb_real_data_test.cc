// The published openb trace itself: its documented shape, and invariants of
// the next-fit replay over it. Skipped when the data is not checked out.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_inventory.h"
#include "ingest/openb/openb_trace.h"
#include "ingest/openb/sampled_load.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::openb {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

class OpenbRealData : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!std::filesystem::exists(std::filesystem::path(fleetcap::testing::SharedDataPath("openb")) / kOpenbNodeFile))
      return;
    absl::StatusOr<OpenbTrace> read = ReadOpenbTrace(fleetcap::testing::SharedDataPath("openb"));
    read_status_ = new absl::Status(read.status());
    if (read.ok()) trace_ = new OpenbTrace(*std::move(read));
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete read_status_;
    trace_ = nullptr;
    read_status_ = nullptr;
  }

  void SetUp() override {
    if (read_status_ == nullptr)
      GTEST_SKIP() << "openb trace not found in " << fleetcap::testing::SharedDataPath("openb");
    ASSERT_TRUE(read_status_->ok()) << *read_status_;
  }

  // Read once: the pod list is 8,152 rows and every test needs it.
  static const OpenbTrace* trace_;
  static const absl::Status* read_status_;
};

const OpenbTrace* OpenbRealData::trace_ = nullptr;
const absl::Status* OpenbRealData::read_status_ = nullptr;

TEST_F(OpenbRealData, NodeListMatchesThePublishedFigures) {
  EXPECT_EQ(trace_->nodes.size(), 1213u);
  int64_t gpus = 0;
  std::map<std::string, int> nodes_per_model;
  for (const OpenbNode& node : trace_->nodes) {
    gpus += node.gpus;
    ++nodes_per_model[node.model];
  }
  EXPECT_EQ(gpus, 6212);
  const std::map<std::string, int> expected = {{"G2", 549}, {"T4", 404},     {"P100", 134}, {"V100M16", 55},
                                               {"G3", 39},  {"V100M32", 30}, {"A10", 2}};
  EXPECT_EQ(nodes_per_model, expected);
}

TEST_F(OpenbRealData, PodListMatchesThePublishedFigures) {
  EXPECT_EQ(trace_->pods.size(), 8152u);
  int never_scheduled = 0;
  int no_gpu = 0;
  for (const OpenbPod& pod : trace_->pods) {
    if (!pod.scheduled_s.has_value()) ++never_scheduled;
    if (pod.num_gpu == 0) ++no_gpu;
  }
  EXPECT_EQ(never_scheduled, 897);
  EXPECT_EQ(no_gpu, 1088);
}

TEST_F(OpenbRealData, EveryPodIsPlacedUnplacedOrWithoutGpus) {
  Placement placement = PlaceNextFit(*trace_);
  ASSERT_EQ(placement.outcomes.size(), 8152u);
  EXPECT_EQ(placement.placed_pods + static_cast<int64_t>(placement.unplaced.size()) + placement.no_gpu_pods, 8152);
  EXPECT_EQ(placement.no_gpu_pods, 1088);
  std::map<PodOutcome, int> by_outcome;
  for (PodOutcome outcome : placement.outcomes) ++by_outcome[outcome];
  // 897 pods never scheduled, 36 of them without GPUs.
  EXPECT_EQ(by_outcome[PodOutcome::kNeverScheduled], 861);
  EXPECT_EQ(by_outcome[PodOutcome::kEmptyInterval], 0);
  EXPECT_EQ(by_outcome[PodOutcome::kInvalidRequest], 0);
  // Pinned from the replay (and an independent re-implementation of the
  // contract): every pod the trace scheduled finds room, so the rule decides
  // only where pods go, never whether.
  EXPECT_EQ(placement.placed_pods, 6203);
  EXPECT_EQ(by_outcome[PodOutcome::kNoRoom], 0);
  EXPECT_EQ(placement.holds.size(), 6571u);

  // Each placed pod holds exactly what it asked for, on one node.
  std::vector<int64_t> held(trace_->pods.size(), 0);
  std::vector<size_t> node_of(trace_->pods.size(), SIZE_MAX);
  for (const GpuHold& hold : placement.holds) {
    held[hold.pod] += hold.milli;
    if (node_of[hold.pod] == SIZE_MAX) node_of[hold.pod] = hold.node;
    EXPECT_EQ(node_of[hold.pod], hold.node) << trace_->pods[hold.pod].name;
  }
  for (size_t p = 0; p < trace_->pods.size(); ++p) {
    const OpenbPod& pod = trace_->pods[p];
    const int64_t expected = placement.outcomes[p] == PodOutcome::kPlaced ? int64_t{pod.num_gpu} * pod.gpu_milli : 0;
    EXPECT_EQ(held[p], expected) << pod.name;
  }
}

TEST_F(OpenbRealData, NoGpuIsEverHeldBeyondOneWholeGpu) {
  Placement placement = PlaceNextFit(*trace_);
  ASSERT_FALSE(placement.holds.empty());

  // Sweep every hold's start and end, ends first at equal times (half-open
  // intervals), checking each GPU's running total and the cluster's.
  struct Step {
    int64_t time_s;
    int delta;
    size_t node;
    int32_t gpu;
  };
  std::vector<Step> steps;
  for (const GpuHold& hold : placement.holds) {
    ASSERT_GE(hold.milli, 1);
    ASSERT_LE(hold.milli, 1000);
    ASSERT_LT(hold.gpu, trace_->nodes[hold.node].gpus);
    steps.push_back({hold.start_s, hold.milli, hold.node, hold.gpu});
    if (hold.end_s.has_value()) steps.push_back({*hold.end_s, -hold.milli, hold.node, hold.gpu});
  }
  std::sort(steps.begin(), steps.end(),
            [](const Step& a, const Step& b) { return std::tie(a.time_s, a.delta) < std::tie(b.time_s, b.delta); });
  std::map<std::pair<size_t, int32_t>, int> per_gpu;
  int64_t total = 0;
  int64_t peak = 0;
  int64_t peak_at = 0;
  int worst_gpu = 0;
  for (const Step& step : steps) {
    int& milli = per_gpu[{step.node, step.gpu}];
    milli += step.delta;
    worst_gpu = std::max(worst_gpu, milli);
    ASSERT_LE(milli, 1000) << trace_->nodes[step.node].name << " gpu " << step.gpu << " at " << step.time_s;
    ASSERT_GE(milli, 0);
    total += step.delta;
    if (total > peak) {
      peak = total;
      peak_at = step.time_s;
    }
  }
  // Replayed at its recorded times the trace keeps about 1% of the 6,212
  // GPUs busy at its peak: its pods are spread over 149 days.
  EXPECT_EQ(peak, 65590);
  EXPECT_EQ(peak_at, 12523649);
  EXPECT_EQ(worst_gpu, 1000);  // some GPU is full at some point
}

TEST_F(OpenbRealData, ReplayIsFast) {
  const auto begin = std::chrono::steady_clock::now();
  Placement placement = PlaceNextFit(*trace_);
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(placement.outcomes.size(), trace_->pods.size());
  // Generous for sanitizer builds on a busy machine; it takes milliseconds.
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST_F(OpenbRealData, InventoryHasADevicePerGpuAndAHoldPerPlacedGpu) {
  Placement placement = PlaceNextFit(*trace_);
  store::ClusterInventory inv = BuildOpenbInventory(*trace_, placement, "openb", absl::FromUnixSeconds(1767225600));
  EXPECT_EQ(inv.types.size(), 7u);
  EXPECT_EQ(inv.nodes.size(), 1213u);
  EXPECT_EQ(inv.devices.size(), 6212u);
  EXPECT_EQ(inv.pods.size(), 8152u);
  EXPECT_EQ(inv.holds.size(), placement.holds.size());
  std::map<std::string, int> pods_per_team;
  for (const store::Pod& pod : inv.pods) ++pods_per_team[pod.team];
  EXPECT_EQ(pods_per_team.size(), 12u);  // every name has the openb-pod-NNNN form
  EXPECT_EQ(pods_per_team.count("unassigned"), 0u);
}

TEST_F(OpenbRealData, OtherPodListsWithTheSameColumnsRead) {
  absl::StatusOr<OpenbTrace> share =
      ReadOpenbTrace(fleetcap::testing::SharedDataPath("openb"), "openb_pod_list_gpushare40.csv");
  ASSERT_THAT(share, IsOk());
  EXPECT_EQ(share->pods.size(), 8152u);
  Placement placement = PlaceNextFit(*share);
  EXPECT_EQ(placement.placed_pods + static_cast<int64_t>(placement.unplaced.size()) + placement.no_gpu_pods, 8152);
  // multigpu50 as published has only name, cpu, memory and GPU columns, no
  // times: it cannot be replayed, and says so rather than misreading.
  absl::Status multi =
      ReadOpenbTrace(fleetcap::testing::SharedDataPath("openb"), "openb_pod_list_multigpu50.csv").status();
  EXPECT_EQ(multi.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(multi.ToString(), HasSubstr("openb_pod_list_multigpu50.csv:1: missing columns")) << multi;
}

// The demo's sampled load (make demo): G2 and T4 at their targets, and the
// tight V100M32 flavor queueing.
TEST_F(OpenbRealData, TheDemosSampledLoadReachesItsTargets) {
  LoadSampleOptions options;
  options.start_unix_s = 1793577600;  // 2026-11-02T00:00:00Z
  options.window_s = 3 * 86400;
  options.targets = DefaultDemoTargets();
  absl::StatusOr<SampledLoad> load = SampleLoad(*trace_, options);
  ASSERT_THAT(load, IsOk());
  std::map<std::string, FlavorOutcome> flavors;
  for (const FlavorOutcome& flavor : load->flavors) {
    flavors[flavor.model] = flavor;
    std::cout << flavor.model << ": target " << flavor.target << ", last day " << flavor.held_share_last_day << ", now "
              << flavor.held_share_now << ", " << flavor.arrivals_per_hour << " arrivals/h, " << flavor.pods
              << " pods, " << flavor.waits << " waited, " << flavor.waiting_now << " waiting now\n";
  }
  ASSERT_EQ(flavors.size(), 7u);
  EXPECT_NEAR(flavors["G2"].held_share_last_day, 0.78, options.tolerance);
  EXPECT_NEAR(flavors["T4"].held_share_last_day, 0.75, options.tolerance);
  EXPECT_GT(flavors["V100M32"].waits, 0);
}

}  // namespace
}  // namespace fleetcap::openb
