#include "ingest/openb/openb_inventory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::openb {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1767225600);  // 2026-01-01T00:00:00Z

OpenbTrace SmallTrace() {
  OpenbTrace trace;
  trace.nodes = {{"n-t4", 32000, 65536, 2, "T4"}, {"n-g2", 96000, 393216, 1, "G2"}, {"n-cpu", 8000, 16384, 0, ""}};
  OpenbPod whole;
  whole.name = "openb-pod-0013";
  whole.num_gpu = 2;
  whole.gpu_milli = 1000;
  whole.phase = "Running";
  whole.creation_s = 5;
  whole.scheduled_s = 10;
  whole.deletion_s = 70;
  OpenbPod share;
  share.name = "openb-pod-0002";
  share.num_gpu = 1;
  share.gpu_milli = 460;
  share.phase = "Running";
  share.creation_s = 15;
  share.scheduled_s = 20;  // open: never deleted
  OpenbPod pending;
  pending.name = "custom";
  pending.num_gpu = 1;
  pending.gpu_milli = 1000;
  pending.phase = "Pending";
  pending.creation_s = 30;
  trace.pods = {whole, share, pending};
  return trace;
}

TEST(OpenbVendor, NvidiaForPublicModelsUnknownForInternalCodes) {
  for (const char* model : {"T4", "P100", "V100M16", "V100M32", "A10"}) {
    EXPECT_EQ(OpenbVendor(model), "nvidia") << model;
  }
  for (const char* model : {"G1", "G2", "G3", "", "H100"}) {
    EXPECT_EQ(OpenbVendor(model), "unknown") << model;
  }
}

TEST(BuildOpenbInventory, OneTypePerModelNodePerNodeDevicePerGpu) {
  OpenbTrace trace = SmallTrace();
  store::ClusterInventory inv = BuildOpenbInventory(trace, PlaceNextFit(trace), "openb", kStart);
  EXPECT_EQ(inv.cluster, "openb");

  ASSERT_EQ(inv.types.size(), 2u);  // the CPU node adds no type
  EXPECT_EQ(inv.types[0].model, "G2");
  EXPECT_EQ(inv.types[0].vendor, "unknown");
  EXPECT_EQ(inv.types[0].resource_name, "nvidia.com/gpu");
  EXPECT_EQ(inv.types[1].model, "T4");
  EXPECT_EQ(inv.types[1].vendor, "nvidia");

  ASSERT_EQ(inv.nodes.size(), 3u);
  EXPECT_EQ(inv.nodes[0].name, "n-t4");
  EXPECT_EQ(inv.nodes[0].pool, "T4");
  EXPECT_EQ(inv.nodes[0].cpu_milli, 32000);
  EXPECT_EQ(inv.nodes[0].memory_mib, 65536);
  EXPECT_EQ(inv.nodes[0].in_service_from, kStart);
  EXPECT_EQ(inv.nodes[0].in_service_to, std::nullopt);

  ASSERT_EQ(inv.devices.size(), 3u);
  EXPECT_EQ(inv.devices[0].device_id, "n-t4-gpu0");
  EXPECT_EQ(inv.devices[1].device_id, "n-t4-gpu1");
  EXPECT_EQ(inv.devices[1].node, "n-t4");
  EXPECT_EQ(inv.devices[1].index, 1);
  EXPECT_EQ(inv.devices[1].model, "T4");
  EXPECT_EQ(inv.devices[2].device_id, "n-g2-gpu0");
  EXPECT_EQ(inv.devices[2].in_service_from, kStart);
  EXPECT_EQ(inv.devices[2].in_service_to, std::nullopt);
}

TEST(OpenbInventoryChanges, EachGpuNodeCarriesTheProductLabelWithItsModel) {
  OpenbTrace trace = SmallTrace();
  trace.nodes.push_back({"n-odd", 8000, 16384, 1, "V100 (32GB)"});  // no valid label value
  trace.nodes.push_back({"n-long", 8000, 16384, 1, std::string(64, 'G')});
  store::InventoryChanges changes =
      OpenbInventoryChanges(BuildOpenbInventory(trace, PlaceNextFit(trace), "openb", kStart));
  EXPECT_EQ(changes.cluster, "openb");
  ASSERT_EQ(changes.nodes.size(), 5u);
  // What NVIDIA's GPU feature discovery would set, valued with the trace's model.
  EXPECT_EQ(changes.nodes[0].node.name, "n-t4");
  EXPECT_EQ(changes.nodes[0].node.pool, "T4");
  EXPECT_EQ(changes.nodes[0].node.cpu_milli, 32000);
  EXPECT_EQ(changes.nodes[0].node.memory_mib, 65536);
  EXPECT_EQ(changes.nodes[0].node.in_service_from, kStart);
  EXPECT_EQ(changes.nodes[0].node.in_service_to, std::nullopt);
  EXPECT_EQ(changes.nodes[0].topology, "");
  EXPECT_EQ(changes.nodes[0].model_label_key, "nvidia.com/gpu.product");
  EXPECT_EQ(changes.nodes[0].model_label_value, "T4");
  EXPECT_EQ(changes.nodes[0].pool_label_key, "");  // the trace names no node pools
  // An undisclosed model is requested as nvidia.com/gpu: labelled alike.
  EXPECT_EQ(changes.nodes[1].node.name, "n-g2");
  EXPECT_EQ(changes.nodes[1].model_label_key, "nvidia.com/gpu.product");
  EXPECT_EQ(changes.nodes[1].model_label_value, "G2");
  EXPECT_EQ(changes.nodes[1].pool_label_key, "");
  // No GPU, or a model no label can hold: no label.
  for (size_t n = 2; n < changes.nodes.size(); ++n) {
    EXPECT_EQ(changes.nodes[n].model_label_key, "") << changes.nodes[n].node.name;
    EXPECT_EQ(changes.nodes[n].model_label_value, "") << changes.nodes[n].node.name;
    EXPECT_EQ(changes.nodes[n].pool_label_key, "") << changes.nodes[n].node.name;
  }
  // The rest is what store::ChangesOf writes.
  EXPECT_EQ(changes.devices.size(), 5u);
  EXPECT_EQ(changes.pods.size(), 3u);
  EXPECT_EQ(changes.holds.size(), 3u);
}

TEST(BuildOpenbInventory, PodsCarryTeamTimesRequestAndUnplaced) {
  OpenbTrace trace = SmallTrace();
  store::ClusterInventory inv = BuildOpenbInventory(trace, PlaceNextFit(trace), "openb", kStart);
  ASSERT_EQ(inv.pods.size(), 3u);

  const store::Pod& whole = inv.pods[0];
  EXPECT_EQ(whole.uid, "openb-pod-0013");
  EXPECT_EQ(whole.name, "openb-pod-0013");
  EXPECT_EQ(whole.team, "team-01");
  EXPECT_EQ(whole.namespace_name, "team-01");
  EXPECT_EQ(whole.workload_kind, "Pod");
  EXPECT_EQ(whole.workload_name, "openb-pod-0013");
  EXPECT_EQ(whole.phase, "Running");
  EXPECT_EQ(whole.created, kStart + absl::Seconds(5));
  EXPECT_EQ(whole.scheduled, kStart + absl::Seconds(10));
  EXPECT_EQ(whole.deleted, kStart + absl::Seconds(70));
  EXPECT_EQ(whole.requested_milli, 2000);
  EXPECT_FALSE(whole.unplaced);

  const store::Pod& share = inv.pods[1];
  EXPECT_EQ(share.team, "team-02");
  EXPECT_EQ(share.requested_milli, 460);
  EXPECT_EQ(share.deleted, std::nullopt);
  EXPECT_FALSE(share.unplaced);

  const store::Pod& pending = inv.pods[2];
  EXPECT_EQ(pending.team, "unassigned");
  EXPECT_EQ(pending.namespace_name, "default");
  EXPECT_EQ(pending.phase, "Pending");
  EXPECT_EQ(pending.scheduled, std::nullopt);
  EXPECT_TRUE(pending.unplaced);
}

TEST(BuildOpenbInventory, OneHoldPerHeldGpu) {
  OpenbTrace trace = SmallTrace();
  store::ClusterInventory inv = BuildOpenbInventory(trace, PlaceNextFit(trace), "openb", kStart);
  // Name order is n-cpu, n-g2, n-t4: the 2-GPU pod passes the CPU node and
  // the one-GPU n-g2 for n-t4; the share then wraps past n-cpu to n-g2.
  ASSERT_EQ(inv.holds.size(), 3u);
  EXPECT_EQ(inv.holds[0].pod_uid, "openb-pod-0013");
  EXPECT_EQ(inv.holds[0].device_id, "n-t4-gpu0");
  EXPECT_EQ(inv.holds[0].milli, 1000);
  EXPECT_EQ(inv.holds[0].from, kStart + absl::Seconds(10));
  EXPECT_EQ(inv.holds[0].to, kStart + absl::Seconds(70));
  EXPECT_EQ(inv.holds[1].device_id, "n-t4-gpu1");
  EXPECT_EQ(inv.holds[2].pod_uid, "openb-pod-0002");
  EXPECT_EQ(inv.holds[2].device_id, "n-g2-gpu0");
  EXPECT_EQ(inv.holds[2].milli, 460);
  EXPECT_EQ(inv.holds[2].from, kStart + absl::Seconds(20));
  EXPECT_EQ(inv.holds[2].to, std::nullopt);
}

}  // namespace
}  // namespace fleetcap::openb
