#include "ingest/telemetry/normaliser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace fleetcap::telemetry {
namespace {

double StaleNan() {
  const uint64_t bits = 0x7ff0000000000002ULL;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

TEST(Normaliser, DcgmSeriesWithPodAndHostnameEitherCase) {
  Normaliser n(&DefaultMetricMapping());
  DropCounts drops;
  auto s = n.Normalise({{"__name__", "DCGM_FI_DEV_GPU_UTIL"},
                        {"UUID", "GPU-abc"},
                        {"gpu", "0"},
                        {"modelName", "NVIDIA H100 80GB HBM3"},
                        {"hostname", "node-7"},
                        {"exported_pod", "train-0"},
                        {"exported_namespace", "ml"},
                        {"pod", "dcgm-exporter-xyz"}},
                       {{1000, 50}, {2000, 100}}, &drops);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->field, Field::kUtil);
  EXPECT_EQ(s->key.device_id, "GPU-abc");
  EXPECT_EQ(s->key.node, "node-7");
  EXPECT_EQ(s->key.model, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(s->key.pod, "train-0");  // exported_pod names the workload, pod the exporter
  EXPECT_EQ(s->key.namespace_, "ml");
  ASSERT_EQ(s->points.size(), 2u);
  EXPECT_DOUBLE_EQ(s->points[0].value, 0.5);  // percent to fraction
  EXPECT_DOUBLE_EQ(s->points[1].value, 1.0);
  EXPECT_EQ(drops.Total(), 0);

  auto upper = n.Describe({{"__name__", "DCGM_FI_DEV_FB_USED"}, {"UUID", "GPU-abc"}, {"Hostname", "node-8"}});
  ASSERT_TRUE(upper.has_value());
  EXPECT_EQ(upper->key.node, "node-8");
  EXPECT_FALSE(upper->key.has_pod());
}

TEST(Normaliser, MigInstanceIsADeviceOfItsOwn) {
  Normaliser n(&DefaultMetricMapping());
  auto s = n.Describe({{"__name__", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"},
                       {"UUID", "GPU-abc"},
                       {"modelName", "A100"},
                       {"GPU_I_PROFILE", "3g.40gb"},
                       {"GPU_I_ID", "2"}});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->key.device_id, "GPU-abc/mig-2");
  EXPECT_EQ(s->key.model, "A100 3g.40gb");
}

TEST(Normaliser, TpuAndAmdSeries) {
  Normaliser n(&DefaultMetricMapping());
  DropCounts drops;
  auto tpu = n.Normalise({{"__name__", "duty_cycle"},
                          {"accelerator_id", "tpu-1"},
                          {"model", "tpu-v5p"},
                          {"tpu_topology", "2x2x1"},
                          {"pod", "p"},
                          {"namespace", "ns"}},
                         {{0, 25}}, &drops);
  ASSERT_TRUE(tpu.has_value());
  EXPECT_EQ(tpu->key.device_id, "tpu-1");
  EXPECT_EQ(tpu->key.model, "tpu-v5p");
  EXPECT_DOUBLE_EQ(tpu->points[0].value, 0.25);
  auto node_level = n.Describe({{"__name__", "memory_used_node"}, {"node", "tpu-node-1"}});
  ASSERT_TRUE(node_level.has_value());
  EXPECT_EQ(node_level->key.device_id, "tpu-node-1/node");
  auto amd = n.Normalise({{"__name__", "gpu_used_vram"},
                          {"serial_number", "SN1"},
                          {"gpu_id", "3"},
                          {"card_model", "MI300X"},
                          {"hostname", "h"}},
                         {{0, 2}}, &drops);
  ASSERT_TRUE(amd.has_value());
  EXPECT_EQ(amd->key.device_id, "SN1");
  EXPECT_EQ(amd->field, Field::kMemoryUsed);
  EXPECT_DOUBLE_EQ(amd->points[0].value, 2.0 * 1048576);
  auto by_index = n.Describe({{"__name__", "gpu_gfx_activity"}, {"gpu_id", "3"}, {"hostname", "h"}});
  ASSERT_TRUE(by_index.has_value());
  EXPECT_EQ(by_index->key.device_id, "h/3");
}

TEST(Normaliser, NonMeasurementsAreDroppedAndCountedByReason) {
  Normaliser n(&DefaultMetricMapping());
  DropCounts drops;
  const double inf = std::numeric_limits<double>::infinity();
  auto s = n.Normalise({{"__name__", "DCGM_FI_DEV_POWER_USAGE"}, {"UUID", "GPU-1"}},
                       {{1, 300},
                        {2, StaleNan()},
                        {3, std::nan("")},
                        {4, inf},
                        {5, -inf},
                        {6, -1},
                        {7, 9223372036854775792.0},
                        {8, 9223372036854775807.0},
                        {9, 1.8446744073709552e19},
                        {10, 0}},
                       &drops);
  ASSERT_TRUE(s.has_value());
  ASSERT_EQ(s->points.size(), 2u);
  EXPECT_EQ(s->points[0].ts_ms, 1);
  EXPECT_EQ(s->points[1].ts_ms, 10);
  EXPECT_EQ(drops.Get(DropReason::kStale), 1);
  EXPECT_EQ(drops.Get(DropReason::kNan), 1);
  EXPECT_EQ(drops.Get(DropReason::kInf), 2);
  EXPECT_EQ(drops.Get(DropReason::kNegative), 1);
  EXPECT_EQ(drops.Get(DropReason::kSentinel), 3);
  EXPECT_TRUE(IsStaleMarker(StaleNan()));
  EXPECT_FALSE(IsStaleMarker(std::nan("")));
}

TEST(Normaliser, UnmappedMetricsAndDevicelessSeriesAreCounted) {
  Normaliser n(&DefaultMetricMapping());
  DropCounts drops;
  EXPECT_FALSE(n.Normalise({{"__name__", "up"}, {"job", "x"}}, {{1, 1}, {2, 1}}, &drops).has_value());
  EXPECT_FALSE(n.Normalise({{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"pod", "p"}}, {{1, 1}}, &drops).has_value());
  EXPECT_FALSE(n.Normalise({{"job", "no-name"}}, {{1, 1}}, &drops).has_value());
  EXPECT_EQ(drops.Get(DropReason::kUnknownMetric), 3);
  EXPECT_EQ(drops.Get(DropReason::kNoDevice), 1);
}

// A series whose device, pod or node is not text the store can hold would
// fail every batch it is in: dropped and counted here instead.
TEST(Normaliser, LabelsTheStoreCannotHoldAreDroppedAndCounted) {
  Normaliser n(&DefaultMetricMapping());
  DropCounts drops;
  for (const std::string& bad : {std::string("GPU\0x", 5), std::string("GPU-\xff"), std::string("\xc0\xaf"),
                                 std::string("\xed\xa0\x80"), std::string("GPU-\xe2\x82")}) {
    EXPECT_FALSE(n.Normalise({{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"UUID", bad}}, {{1000, 50}}, &drops));
    EXPECT_FALSE(n.Normalise(
        {{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"UUID", "GPU-0"}, {"exported_pod", bad}, {"exported_namespace", "ml"}},
        {{1000, 50}}, &drops));
  }
  EXPECT_EQ(drops.Get(DropReason::kInvalidLabel), 10);
  EXPECT_STREQ(DropReasonName(DropReason::kInvalidLabel), "invalid_label");
  auto fine = n.Normalise({{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"UUID", "GPU-\xc3\xa9\xf0\x9f\x98\x80"}},
                          {{1000, 50}}, &drops);
  ASSERT_TRUE(fine.has_value());
  EXPECT_EQ(fine->points.size(), 1u);
}

}  // namespace
}  // namespace fleetcap::telemetry
