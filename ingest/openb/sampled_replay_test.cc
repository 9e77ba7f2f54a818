// The sampled replay into the in-memory store: the window ends at the
// clock's now, pods running now are live with open holds, and the pods
// waiting now are the cluster's pending demand.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "ingest/openb/openb_replay.h"
#include "store/memory_live_inventory_repository.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_dir.h"

namespace fleetcap::ingest {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::TestDir;
using ::testing::IsEmpty;
using ::testing::Not;

// 40 two-GPU T4 nodes and 3 eight-GPU V100 nodes; pods of one GPU, half a
// GPU and eight GPUs, run for one to three hours in the trace.
void WriteSmallTrace(const TestDir& dir) {
  std::string nodes = "sn,cpu_milli,memory_mib,gpu,model\n";
  for (int n = 0; n < 40; ++n) absl::StrAppend(&nodes, "t4-", 100 + n, ",32000,131072,2,T4\n");
  for (int n = 0; n < 3; ++n) absl::StrAppend(&nodes, "v100-", n, ",96000,393216,8,V100\n");
  dir.Write("openb_node_list_gpu_node.csv", nodes);
  dir.Write("openb_pod_list_default.csv",
            "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
            "scheduled_time\n"
            "openb-pod-0000,8000,16384,1,1000,,LS,Succeeded,0,7200,0\n"
            "openb-pod-0001,4000,8192,1,500,,LS,Succeeded,10,3610,10\n"
            "openb-pod-0002,64000,262144,8,1000,,LS,Succeeded,20,10820,20\n");
}

TEST(ReplaySampledOpenb, StoresTheWindowBeforeNowWithItsPendingDemand) {
  TestDir dir;
  WriteSmallTrace(dir);
  OpenbReplayOptions options;
  options.data_dir = dir.path();
  options.cluster = "sampled";
  openb::LoadSampleOptions sample;
  sample.seed = 3;
  sample.window_s = 3 * 86400;
  sample.max_duration_s = 86400;
  sample.targets = {{"T4", 0.7}, {"V100", 0.95}};
  const absl::Time now = absl::FromUnixSeconds(1794306600);  // 2026-11-10T10:30:00Z
  SimulatedClock clock(now);
  store::MemoryLiveInventoryRepository inventory;

  absl::StatusOr<SampledReplayReport> report = ReplaySampledOpenb(options, sample, inventory, clock);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(FormatRfc3339(report->start), "2026-11-07T10:00:00Z");
  EXPECT_EQ(report->end, now);
  EXPECT_EQ(report->replay.devices, 104);
  EXPECT_GT(report->replay.placed_pods, 1000);
  EXPECT_GT(report->waits, 0);
  EXPECT_EQ(report->waits, report->replay.unplaced_pods);
  int64_t waiting_now = 0;
  for (const openb::FlavorOutcome& flavor : report->flavors) waiting_now += flavor.waiting_now;

  absl::StatusOr<store::LiveInventory> live = inventory.LoadLive("sampled");
  ASSERT_THAT(live, IsOk());
  EXPECT_EQ(static_cast<int64_t>(live->devices.size()), 104);
  // Every node carries the product label, valued with its model, as the replay labels them.
  ASSERT_EQ(live->nodes.size(), 43u);
  for (const store::LiveNode& node : live->nodes) {
    EXPECT_EQ(node.model_label_key, "nvidia.com/gpu.product") << node.node.name;
    EXPECT_EQ(node.model_label_value, node.node.pool) << node.node.name;
  }
  auto t4 = inventory.SharedNodeLabels("T4", "", "*");
  ASSERT_THAT(t4, IsOk());
  EXPECT_EQ(*t4, (std::map<std::string, std::string>{{"nvidia.com/gpu.product", "T4"}}));
  ASSERT_THAT(live->pods, Not(IsEmpty()));
  int64_t open_holds = 0;
  for (const store::Hold& hold : live->holds) {
    if (!hold.to.has_value()) ++open_holds;
    EXPECT_GE(hold.from, report->start);
    EXPECT_LE(hold.from, now);
  }
  EXPECT_GT(open_holds, 0);
  int64_t open_waits = 0;
  for (const store::DemandWait& wait : live->demands) {
    EXPECT_EQ(wait.resource_name, "nvidia.com/gpu");
    EXPECT_THAT(wait.model, ::testing::AnyOf("T4", "V100"));
    EXPECT_GT(wait.requested_milli, 0);
    if (!wait.to.has_value()) ++open_waits;
  }
  EXPECT_EQ(open_waits, waiting_now);
  for (const store::LivePod& pod : live->pods) {
    EXPECT_THAT(pod.pod.team, ::testing::StartsWith("team-")) << pod.pod.name;
    EXPECT_THAT(pod.pod.phase, ::testing::AnyOf("Running", "Pending")) << pod.pod.name;
  }
}

}  // namespace
}  // namespace fleetcap::ingest
