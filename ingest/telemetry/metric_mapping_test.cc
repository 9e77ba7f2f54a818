#include "ingest/telemetry/metric_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::telemetry {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(DefaultMetricMapping, KnowsEveryExporterOfTheIssue) {
  const MetricMapping& m = DefaultMetricMapping();
  for (const char* name : {"DCGM_FI_DEV_GPU_UTIL",
                           "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                           "DCGM_FI_PROF_SM_ACTIVE",
                           "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
                           "DCGM_FI_PROF_DRAM_ACTIVE",
                           "DCGM_FI_DEV_FB_USED",
                           "DCGM_FI_DEV_FB_FREE",
                           "DCGM_FI_DEV_POWER_USAGE",
                           "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                           "duty_cycle",
                           "duty_cycle_node",
                           "tensorcore_utilization",
                           "memory_used",
                           "memory_total",
                           "memory_bandwidth_utilization",
                           "memory_used_node",
                           "gpu_gfx_activity",
                           "gpu_used_vram",
                           "gpu_total_vram",
                           "gpu_power_usage"}) {
    EXPECT_NE(m.Find(name), nullptr) << name;
  }
  ASSERT_NE(m.Find("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"), nullptr);
  EXPECT_TRUE(m.Find("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")->counter);
  EXPECT_EQ(m.Find("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")->field, Field::kEnergy);
  EXPECT_DOUBLE_EQ(m.Find("DCGM_FI_DEV_FB_USED")->scale, 1048576.0);
  EXPECT_EQ(m.Find("node_cpu_seconds_total"), nullptr);
  EXPECT_EQ(m.device.front(), "UUID");
}

TEST(ParseMetricMapping, ASiteWithOtherNamesNeedsNoCode) {
  auto m = ParseMetricMapping(R"(
metrics:
  site_gpu_busy_ratio: {field: util}
labels:
  device: [gpu_serial]
  pod: [workload_pod]
)",
                              "site.yaml");
  ASSERT_THAT(m, IsOk());
  ASSERT_NE(m->Find("site_gpu_busy_ratio"), nullptr);
  EXPECT_DOUBLE_EQ(m->Find("site_gpu_busy_ratio")->scale, 1.0);
  EXPECT_EQ(m->device, std::vector<std::string>{"gpu_serial"});
  EXPECT_EQ(m->pod, std::vector<std::string>{"workload_pod"});
}

TEST(ParseMetricMapping, ErrorsNameTheFileAndTheKey) {
  auto bad_field = ParseMetricMapping("metrics:\n  x: {field: heat}\nlabels:\n  device: [d]\n", "a.yaml");
  EXPECT_THAT(bad_field, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("a.yaml: metrics.x.field")));
  auto bad_scale = ParseMetricMapping("metrics:\n  x: {field: util, scale: -1}\nlabels:\n  device: [d]\n", "b.yaml");
  EXPECT_THAT(bad_scale, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("metrics.x.scale")));
  auto not_yaml = ParseMetricMapping("metrics: [unclosed", "c.yaml");
  EXPECT_THAT(not_yaml, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("c.yaml")));
  auto no_labels = ParseMetricMapping("metrics:\n  x: {field: util}\n", "d.yaml");
  EXPECT_THAT(no_labels, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("labels")));
  EXPECT_THAT(LoadMetricMapping("/nonexistent/mapping.yaml"), Not(IsOk()));
}

}  // namespace
}  // namespace fleetcap::telemetry
