#include "ingest/synthetic/synthetic_trace.h"

#include <gtest/gtest.h>

#include <map>

#include "ingest/openb/next_fit_placer.h"

namespace fleetcap::synthetic {
namespace {

TEST(SyntheticTrace, TheSameSeedGivesTheSameCluster) {
  const openb::OpenbTrace a = SyntheticTrace({50, 500, 7});
  const openb::OpenbTrace b = SyntheticTrace({50, 500, 7});
  const openb::OpenbTrace c = SyntheticTrace({50, 500, 8});
  ASSERT_EQ(a.nodes.size(), 50u);
  ASSERT_EQ(a.pods.size(), 500u);
  bool differs = false;
  for (size_t i = 0; i < a.pods.size(); ++i) {
    EXPECT_EQ(a.pods[i].name, b.pods[i].name);
    EXPECT_EQ(a.pods[i].num_gpu, b.pods[i].num_gpu);
    EXPECT_EQ(a.pods[i].gpu_milli, b.pods[i].gpu_milli);
    EXPECT_EQ(a.pods[i].creation_s, b.pods[i].creation_s);
    EXPECT_EQ(a.pods[i].deletion_s, b.pods[i].deletion_s);
    differs = differs || a.pods[i].creation_s != c.pods[i].creation_s;
  }
  for (size_t i = 0; i < a.nodes.size(); ++i) EXPECT_EQ(a.nodes[i].model, b.nodes[i].model);
  EXPECT_TRUE(differs);
}

TEST(SyntheticTrace, HasTheOpenbShapes) {
  const openb::OpenbTrace t = SyntheticTrace({2000, 20000, 1});
  std::map<std::string, int> models;
  for (const auto& n : t.nodes) {
    ++models[n.model];
    EXPECT_TRUE(n.gpus == 1 || n.gpus == 2 || n.gpus == 4 || n.gpus == 8) << n.gpus;
  }
  // G2 is 549 of 1,213 nodes in the trace (45%), T4 33%.
  EXPECT_NEAR(models["G2"] / 2000.0, 549.0 / 1213.0, 0.04);
  EXPECT_NEAR((models["T4"]) / 2000.0, 404.0 / 1213.0, 0.04);
  int no_gpu = 0, share = 0, multi = 0;
  for (const auto& p : t.pods) {
    EXPECT_EQ(openb::ClassifyGpuRequest(p) == openb::GpuRequest::kInvalid, false) << p.name;
    ASSERT_TRUE(p.scheduled_s.has_value());
    EXPECT_GE(*p.scheduled_s, p.creation_s);
    if (p.deletion_s) {
      EXPECT_GT(*p.deletion_s, *p.scheduled_s);
    }
    no_gpu += p.num_gpu == 0;
    share += p.num_gpu == 1 && p.gpu_milli < 1000;
    multi += p.num_gpu > 1;
  }
  EXPECT_NEAR(no_gpu / 20000.0, 1088.0 / 8152.0, 0.02);
  EXPECT_NEAR(share / 20000.0, 3078.0 / 8152.0, 0.02);
  EXPECT_NEAR(multi / 20000.0, 75.0 / 8152.0, 0.01);
  // And the replay's placement takes it.
  const openb::Placement placement = openb::PlaceNextFit(t);
  EXPECT_GT(placement.placed_pods, 10000);
}

}  // namespace
}  // namespace fleetcap::synthetic
