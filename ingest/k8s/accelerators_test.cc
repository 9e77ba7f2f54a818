#include "ingest/k8s/accelerators.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::k8s {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::StartsWith;

NodeObject Node(std::map<std::string, std::string> labels, std::map<std::string, int64_t> units) {
  NodeObject node;
  node.name = "n1";
  node.labels = std::move(labels);
  for (const auto& [name, count] : units) {
    node.capacity[name] = count * 1000;
    node.allocatable[name] = count * 1000;
  }
  node.capacity["cpu"] = 64000;
  node.allocatable["cpu"] = 64000;
  return node;
}

PodObject PodAsking(std::map<std::string, int64_t> units) {
  PodObject pod;
  pod.name = "p";
  ContainerResources c;
  for (const auto& [name, count] : units) c.requests[name] = count * 1000;
  pod.containers.push_back(c);
  return pod;
}

const AcceleratorConfig kConfig;

TEST(DescribeNode, WholeNvidiaGpus) {
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "H100-SXM5-80GB"}}, {{"nvidia.com/gpu", 8}}), kConfig);
  EXPECT_EQ(acc.vendor, "nvidia");
  EXPECT_EQ(acc.model, "H100-SXM5-80GB");
  EXPECT_EQ(acc.resource_name, "nvidia.com/gpu");
  EXPECT_EQ(acc.family, "gpu");
  EXPECT_EQ(acc.sharing, "");
  EXPECT_EQ(acc.devices, 8);
  EXPECT_EQ(acc.units.at("nvidia.com/gpu").milli, 1000);
  EXPECT_TRUE(acc.units.at("nvidia.com/gpu").whole);
}

TEST(DescribeNode, AllocatableDecidesWhatIsInService) {
  NodeObject node = Node({{"nvidia.com/gpu.product", "T4"}}, {{"nvidia.com/gpu", 4}});
  node.allocatable["nvidia.com/gpu"] = 3000;  // one GPU unhealthy
  EXPECT_EQ(DescribeNode(node, kConfig).devices, 3);
}

TEST(DescribeNode, ModelFromGkeLabelOrFallback) {
  auto gke =
      DescribeNode(Node({{"cloud.google.com/gke-accelerator", "nvidia-tesla-t4"}}, {{"nvidia.com/gpu", 1}}), kConfig);
  EXPECT_EQ(gke.model, "nvidia-tesla-t4");
  AcceleratorConfig config;
  config.fallback_model = "generic-gpu";
  EXPECT_EQ(DescribeNode(Node({}, {{"nvidia.com/gpu", 1}}), config).model, "generic-gpu");
  EXPECT_EQ(DescribeNode(Node({}, {{"nvidia.com/gpu", 1}}), kConfig).model, "unknown");
}

TEST(DescribeNode, NoAcceleratorsIsEmpty) {
  auto acc = DescribeNode(Node({}, {}), kConfig);
  EXPECT_EQ(acc.devices, 0);
  EXPECT_TRUE(acc.units.empty());
  EXPECT_EQ(DescribeNode(Node({{"nvidia.com/gpu.product", "T4"}}, {{"nvidia.com/gpu", 0}}), kConfig).devices, 0);
}

TEST(DescribeNode, MigMixedStrategy) {
  // One A100 split 3g.20gb + 3g.20gb + 1g.5gb, one whole A100.
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "A100-SXM4-40GB"},
                                {"nvidia.com/mig.strategy", "mixed"},
                                {"nvidia.com/gpu.count", "2"}},
                               {{"nvidia.com/gpu", 1}, {"nvidia.com/mig-3g.20gb", 2}, {"nvidia.com/mig-1g.5gb", 1}}),
                          kConfig);
  EXPECT_EQ(acc.sharing, "mig-mixed");
  EXPECT_EQ(acc.model, "A100-SXM4-40GB");
  EXPECT_EQ(acc.devices, 2);
  EXPECT_EQ(acc.units.at("nvidia.com/mig-3g.20gb").milli, 428);  // 3/7, rounded down
  EXPECT_FALSE(acc.units.at("nvidia.com/mig-3g.20gb").whole);
  EXPECT_EQ(acc.units.at("nvidia.com/mig-1g.5gb").milli, 142);
  EXPECT_TRUE(acc.units.at("nvidia.com/gpu").whole);
}

TEST(DescribeNode, MigMixedWithoutCountLabelCountsSlices) {
  // 4 GPUs, all 7x 1g.10gb: 28 MIG devices, 28 slices over 7 per GPU.
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "H100-SXM5-80GB"}, {"nvidia.com/mig.strategy", "mixed"}},
                               {{"nvidia.com/mig-1g.10gb", 28}}),
                          kConfig);
  EXPECT_EQ(acc.devices, 4);
  EXPECT_EQ(acc.units.at("nvidia.com/mig-1g.10gb").milli, 142);
}

TEST(DescribeNode, MigSingleStrategy) {
  // 8 GPUs each split into 7 1g.5gb: nvidia.com/gpu counts 56 MIG devices.
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "A100-SXM4-40GB-MIG-1g.5gb"},
                                {"nvidia.com/mig.strategy", "single"},
                                {"nvidia.com/gpu.count", "56"}},
                               {{"nvidia.com/gpu", 56}}),
                          kConfig);
  EXPECT_EQ(acc.sharing, "mig-single");
  EXPECT_EQ(acc.model, "A100-SXM4-40GB");
  EXPECT_EQ(acc.devices, 8);
  EXPECT_EQ(acc.units.at("nvidia.com/gpu").milli, 142);
  EXPECT_FALSE(acc.units.at("nvidia.com/gpu").whole);

  // 3g.20gb: two per GPU.
  auto three = DescribeNode(
      Node({{"nvidia.com/gpu.product", "A100-SXM4-40GB-MIG-3g.20gb"}, {"nvidia.com/mig.strategy", "single"}},
           {{"nvidia.com/gpu", 16}}),
      kConfig);
  EXPECT_EQ(three.devices, 8);
  EXPECT_EQ(three.units.at("nvidia.com/gpu").milli, 428);
}

TEST(DescribeNode, MigOnA30HasFourSlices) {
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "A30-MIG-2g.12gb"}, {"nvidia.com/mig.strategy", "single"}},
                               {{"nvidia.com/gpu", 4}}),
                          kConfig);
  EXPECT_EQ(acc.model, "A30");
  EXPECT_EQ(acc.devices, 2);
  EXPECT_EQ(acc.units.at("nvidia.com/gpu").milli, 500);
}

TEST(DescribeNode, TimeSlicing) {
  // 4 T4s, 4 replicas each: 16 nvidia.com/gpu.
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "Tesla-T4-SHARED"},
                                {"nvidia.com/gpu.replicas", "4"},
                                {"nvidia.com/gpu.count", "4"}},
                               {{"nvidia.com/gpu", 16}}),
                          kConfig);
  EXPECT_EQ(acc.sharing, "time-slicing");
  EXPECT_EQ(acc.model, "Tesla-T4");
  EXPECT_EQ(acc.replicas, 4);
  EXPECT_EQ(acc.devices, 4);
  EXPECT_EQ(acc.units.at("nvidia.com/gpu").milli, 250);
  EXPECT_FALSE(acc.units.at("nvidia.com/gpu").whole);

  // renameByDefault: the replicas are nvidia.com/gpu.shared.
  auto renamed = DescribeNode(
      Node({{"nvidia.com/gpu.product", "A10G"}, {"nvidia.com/gpu.replicas", "3"}}, {{"nvidia.com/gpu.shared", 6}}),
      kConfig);
  EXPECT_EQ(renamed.devices, 2);
  EXPECT_EQ(renamed.units.at("nvidia.com/gpu.shared").milli, 333);
}

TEST(DescribeNode, KeepsTheLabelsThatNamedTheModelAndPool) {
  auto a100 = DescribeNode(Node({{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb"},
                                 {"cloud.google.com/gke-accelerator", "nvidia-tesla-a100"},
                                 {"nvidia.com/mig.strategy", "single"}},
                                {{"nvidia.com/gpu", 2}}),
                           kConfig);
  EXPECT_EQ(a100.model_label_key, "nvidia.com/gpu.product");  // the first present
  EXPECT_EQ(a100.model_label_value, "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb");
  auto gke =
      DescribeNode(Node({{"cloud.google.com/gke-accelerator", "nvidia-tesla-t4"}}, {{"nvidia.com/gpu", 1}}), kConfig);
  EXPECT_EQ(gke.model_label_key, "cloud.google.com/gke-accelerator");
  EXPECT_EQ(gke.model_label_value, "nvidia-tesla-t4");
  auto tpu =
      DescribeNode(Node({{"cloud.google.com/gke-tpu-accelerator", "tpu-v5p-slice"}}, {{"google.com/tpu", 4}}), kConfig);
  EXPECT_EQ(tpu.model_label_key, "cloud.google.com/gke-tpu-accelerator");
  EXPECT_EQ(tpu.model_label_value, "tpu-v5p-slice");
  auto amd = DescribeNode(Node({{"amd.com/gpu.product-name", "AMD-Instinct-MI300X"}}, {{"amd.com/gpu", 8}}), kConfig);
  EXPECT_EQ(amd.model_label_key, "amd.com/gpu.product-name");
  EXPECT_EQ(amd.model_label_value, "AMD-Instinct-MI300X");
  auto unlabelled = DescribeNode(Node({}, {{"nvidia.com/gpu", 1}}), kConfig);
  EXPECT_EQ(unlabelled.model_label_key, "");
  EXPECT_EQ(unlabelled.model_label_value, "");
  EXPECT_EQ(NodePoolLabel(Node({{"eks.amazonaws.com/nodegroup", "g5"}, {"karpenter.sh/nodepool", "k"}}, {}), kConfig),
            "eks.amazonaws.com/nodegroup");
  EXPECT_EQ(NodePoolLabel(Node({}, {}), kConfig), "");
}

TEST(DescribeNode, Tpu) {
  auto acc = DescribeNode(Node({{"cloud.google.com/gke-tpu-accelerator", "tpu-v5p-slice"},
                                {"cloud.google.com/gke-tpu-topology", "2x2x2"},
                                {"cloud.google.com/gke-nodepool", "tpu-pool"}},
                               {{"google.com/tpu", 4}}),
                          kConfig);
  EXPECT_EQ(acc.vendor, "google");
  EXPECT_EQ(acc.model, "tpu-v5p");
  EXPECT_EQ(acc.family, "tpu");
  EXPECT_EQ(acc.topology, "2x2x2");
  EXPECT_EQ(acc.devices, 4);
  EXPECT_EQ(NodePool(Node({{"cloud.google.com/gke-nodepool", "tpu-pool"}}, {}), kConfig), "tpu-pool");
  EXPECT_EQ(
      DescribeNode(Node({{"cloud.google.com/gke-tpu-accelerator", "tpu-v5-lite-podslice"}}, {{"google.com/tpu", 8}}),
                   kConfig)
          .model,
      "tpu-v5-lite");
}

TEST(DescribeNode, Amd) {
  auto acc =
      DescribeNode(Node({{"amd.com/gpu.product-name", "AMD_Instinct_MI300X_OAM"}}, {{"amd.com/gpu", 8}}), kConfig);
  EXPECT_EQ(acc.vendor, "amd");
  EXPECT_EQ(acc.model, "AMD_Instinct_MI300X_OAM");
  EXPECT_EQ(acc.family, "amd-gpu");
  EXPECT_EQ(acc.devices, 8);
}

TEST(DeviceId, NodeFamilyIndex) { EXPECT_EQ(DeviceId("n1", "gpu", 3), "n1/gpu3"); }

// Time-sliced MIG devices are advertised once per replica; feature discovery
// labels each profile's replicas. Without nvidia.com/gpu.count, the devices
// are what the slices fill, not one per replica.
TEST(DescribeNode, TimeSlicedMigWithoutCountLabelDoesNotInventDevices) {
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "A100-SXM4-40GB"},
                                {"nvidia.com/mig.strategy", "mixed"},
                                {"nvidia.com/mig-3g.20gb.replicas", "4"}},
                               {{"nvidia.com/mig-3g.20gb", 8}}),  // 2 MIG devices x 4 replicas
                          kConfig);
  EXPECT_EQ(acc.devices, 1);
  EXPECT_EQ(acc.units.at("nvidia.com/mig-3g.20gb").milli, 107);  // 3/7 over 4
}

TEST(DescribeNode, MigComputeInstancesCountTheirComputeSlices) {
  // One 3g.20gb GPU instance split into three 1c compute instances, and a 4g.20gb: one A100.
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "A100-SXM4-40GB"}, {"nvidia.com/mig.strategy", "mixed"}},
                               {{"nvidia.com/mig-1c.3g.20gb", 3}, {"nvidia.com/mig-4g.20gb", 1}}),
                          kConfig);
  EXPECT_EQ(acc.devices, 1);
  EXPECT_EQ(acc.units.at("nvidia.com/mig-1c.3g.20gb").milli, 142);
}

TEST(MigProfileSlices, ReadsTheLeadingSliceCount) {
  EXPECT_EQ(MigProfileSlices("1c.3g.20gb"), 1);  // a compute instance: its compute slices
  EXPECT_EQ(MigProfileSlices("2c.4g.20gb"), 2);
  EXPECT_EQ(MigProfileSlices("4c.3g.20gb"), 0);  // more compute than its GPU instance
  EXPECT_EQ(MigProfileSlices("1c.gpu"), 0);
  EXPECT_EQ(MigProfileSlices("3g.40gb"), 3);
  EXPECT_EQ(MigProfileSlices("1g.10gb+me"), 1);
  EXPECT_EQ(MigProfileSlices("gpu"), 0);
  EXPECT_EQ(MigProfileSlices("xg.5gb"), 0);
}

TEST(EffectiveRequests, MaxOfLargestInitAndSumOfApps) {
  PodObject pod = PodAsking({{"nvidia.com/gpu", 1}});
  ContainerResources second;
  second.requests["nvidia.com/gpu"] = 2000;
  pod.containers.push_back(second);
  ContainerResources init;
  init.requests["nvidia.com/gpu"] = 4000;
  pod.init_containers.push_back(init);
  EXPECT_EQ(EffectiveRequests(pod).at("nvidia.com/gpu"), 4000);  // max(4, 1 + 2)
  pod.init_containers[0].requests["nvidia.com/gpu"] = 2000;
  EXPECT_EQ(EffectiveRequests(pod).at("nvidia.com/gpu"), 3000);
}

TEST(EffectiveRequests, LimitStandsInForAMissingRequest) {
  PodObject pod;
  ContainerResources c;
  c.limits["nvidia.com/gpu"] = 2000;
  pod.containers.push_back(c);
  EXPECT_EQ(EffectiveRequests(pod).at("nvidia.com/gpu"), 2000);
  pod.containers[0].requests["nvidia.com/gpu"] = 1000;  // a request wins over the limit
  EXPECT_EQ(EffectiveRequests(pod).at("nvidia.com/gpu"), 1000);
}

TEST(EffectiveRequests, SidecarsAddToBothSidesAndOverheadIsAdded) {
  PodObject pod = PodAsking({{"nvidia.com/gpu", 1}});
  ContainerResources sidecar;
  sidecar.restartable = true;
  sidecar.requests["nvidia.com/gpu"] = 1000;
  ContainerResources init;
  init.requests["nvidia.com/gpu"] = 2000;
  pod.init_containers = {sidecar, init};
  // apps + sidecars = 2; init after the sidecar = 2 + 1 = 3.
  EXPECT_EQ(EffectiveRequests(pod).at("nvidia.com/gpu"), 3000);
  pod.overhead["nvidia.com/gpu"] = 1000;
  EXPECT_EQ(EffectiveRequests(pod).at("nvidia.com/gpu"), 4000);
  EXPECT_TRUE(EffectiveRequests(PodObject{}).empty());
}

TEST(Demand, WholeGpusOnANode) {
  NodeAccelerators acc = DescribeNode(Node({{"nvidia.com/gpu.product", "H100"}}, {{"nvidia.com/gpu", 8}}), kConfig);
  PodDemand d = DemandOn(PodAsking({{"nvidia.com/gpu", 2}, {"example.com/nic", 1}}), acc, kConfig);
  ASSERT_EQ(d.units.size(), 1u);
  EXPECT_EQ(d.units[0].count, 2);
  EXPECT_TRUE(d.units[0].unit.whole);
  EXPECT_EQ(d.TotalMilli(), 2000);
  EXPECT_TRUE(DemandOn(PodAsking({{"example.com/nic", 1}}), acc, kConfig).empty());
}

TEST(Demand, MigTimeSlicingTpuAmd) {
  auto mig = DescribeNode(Node({{"nvidia.com/gpu.product", "A100-SXM4-40GB"}, {"nvidia.com/mig.strategy", "mixed"}},
                               {{"nvidia.com/mig-3g.20gb", 2}, {"nvidia.com/mig-1g.5gb", 1}}),
                          kConfig);
  EXPECT_EQ(DemandOn(PodAsking({{"nvidia.com/mig-3g.20gb", 1}}), mig, kConfig).TotalMilli(), 428);
  auto ts = DescribeNode(
      Node({{"nvidia.com/gpu.product", "T4"}, {"nvidia.com/gpu.replicas", "4"}}, {{"nvidia.com/gpu", 8}}), kConfig);
  EXPECT_EQ(DemandOn(PodAsking({{"nvidia.com/gpu", 2}}), ts, kConfig).TotalMilli(), 500);
  auto tpu =
      DescribeNode(Node({{"cloud.google.com/gke-tpu-accelerator", "tpu-v5p-slice"}}, {{"google.com/tpu", 4}}), kConfig);
  EXPECT_EQ(DemandOn(PodAsking({{"google.com/tpu", 4}}), tpu, kConfig).TotalMilli(), 4000);
  auto amd = DescribeNode(Node({{"amd.com/gpu.product-name", "MI300X"}}, {{"amd.com/gpu", 8}}), kConfig);
  EXPECT_EQ(DemandOn(PodAsking({{"amd.com/gpu", 1}}), amd, kConfig).TotalMilli(), 1000);
}

TEST(Demand, FractionalShareAnnotation) {
  auto acc = DescribeNode(Node({{"nvidia.com/gpu.product", "T4"}}, {{"nvidia.com/gpu", 2}}), kConfig);
  PodObject pod;
  pod.annotations["alibabacloud.com/gpu-milli"] = "460";
  pod.annotations["alibabacloud.com/gpu-index"] = "1";
  PodDemand d = DemandOn(pod, acc, kConfig);
  ASSERT_EQ(d.units.size(), 1u);
  EXPECT_EQ(d.units[0].unit.milli, 460);
  EXPECT_FALSE(d.units[0].unit.whole);
  EXPECT_EQ(d.units[0].count, 1);
  EXPECT_EQ(d.device_indices, std::vector<int>{1});
  // The annotation sets the share of each GPU the pod asks for.
  pod = PodAsking({{"nvidia.com/gpu", 2}});
  pod.annotations["alibabacloud.com/gpu-milli"] = "250";
  EXPECT_EQ(DemandOn(pod, acc, kConfig).TotalMilli(), 500);
  // Or of the annotated count; a share of 1000 is a whole GPU.
  pod = PodObject{};
  pod.annotations = {{"alibabacloud.com/gpu-milli", "1000"},
                     {"alibabacloud.com/gpu-count", "2"},
                     {"alibabacloud.com/gpu-index", "0-1"}};
  d = DemandOn(pod, acc, kConfig);
  EXPECT_EQ(d.TotalMilli(), 2000);
  EXPECT_TRUE(d.units[0].unit.whole);
  EXPECT_EQ(d.device_indices, (std::vector<int>{0, 1}));
  // A value outside 1..1000 is not a share.
  pod = PodAsking({{"nvidia.com/gpu", 1}});
  pod.annotations["alibabacloud.com/gpu-milli"] = "1500";
  EXPECT_EQ(DemandOn(pod, acc, kConfig).TotalMilli(), 1000);
}

TEST(Demand, UnboundPodsAreEstimatedWithoutANode) {
  PodObject pod = PodAsking({{"nvidia.com/mig-3g.20gb", 2}});
  EXPECT_EQ(DemandUnbound(pod, kConfig).TotalMilli(), 856);
  pod = PodAsking({{"nvidia.com/gpu", 4}});
  pod.node_selector["nvidia.com/gpu.product"] = "H100-SXM5-80GB";
  PodDemand d = DemandUnbound(pod, kConfig);
  EXPECT_EQ(d.TotalMilli(), 4000);
  EXPECT_EQ(d.model, "H100-SXM5-80GB");
  pod = PodAsking({{"google.com/tpu", 4}});
  pod.node_selector["cloud.google.com/gke-tpu-accelerator"] = "tpu-v5p-slice";
  EXPECT_EQ(DemandUnbound(pod, kConfig).model, "tpu-v5p");
}

// "9223372036854775" devices parse to milli-units that fit in int64, but
// not once rounded up to whole devices; two large containers overflow the sum.
TEST(CheckDemandArithmetic, OverflowIsAnErrorNamingThePodAndTheField) {
  PodObject pod = PodAsking({{"nvidia.com/gpu", int64_t{9223372036854775}}});
  pod.namespace_name = "ml";
  EXPECT_THAT(CheckDemandArithmetic(pod),
              StatusIs(absl::StatusCode::kOutOfRange,
                       StartsWith("pod ml/p: spec.containers[0].resources.requests[\"nvidia.com/gpu\"]: ")));
  PodObject two = PodAsking({{"nvidia.com/gpu", int64_t{5000000000000000}}});
  two.init_containers.push_back(two.containers[0]);
  two.containers.push_back(two.containers[0]);
  // The init container's request, then the first app container's: there it no longer fits.
  EXPECT_THAT(
      CheckDemandArithmetic(two),
      StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("spec.containers[0].resources.requests[\"nvidia.com/gpu\"]")));
  // Resources that are not accelerators are not fleetcap's to add up.
  PodObject other = PodAsking({{"example.com/widget", int64_t{9223372036854775}}});
  EXPECT_THAT(CheckDemandArithmetic(other), IsOk());
  // What passes cannot overflow the demand.
  PodObject big = PodAsking({{"nvidia.com/gpu", int64_t{9223372036854774}}});
  ASSERT_THAT(CheckDemandArithmetic(big), IsOk());
  EXPECT_EQ(DemandUnbound(big, kConfig).TotalMilli(), int64_t{9223372036854774000});
}

}  // namespace
}  // namespace fleetcap::k8s
