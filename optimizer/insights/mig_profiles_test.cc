#include "optimizer/insights/mig_profiles.h"

#include <gtest/gtest.h>

namespace fleetcap::insights {
namespace {

TEST(MigProfiles, TheTableFollowsTheModelsMemory) {
  ASSERT_EQ(MigProfilesOf("NVIDIA A100-SXM4-40GB").size(), 6u);
  EXPECT_EQ(MigProfilesOf("NVIDIA A100-SXM4-40GB").front().name, "1g.5gb");
  EXPECT_EQ(MigProfilesOf("A100-SXM4-80GB").front().name, "1g.10gb");
  EXPECT_EQ(MigProfilesOf("h100-sxm5-80gb").back().name, "7g.80gb");
  EXPECT_TRUE(MigProfilesOf("A100").empty());  // which A100 is not said
  EXPECT_TRUE(MigProfilesOf("T4").empty());
}

TEST(MigProfiles, SlicesAreHeldAsTheIngestStoresThem) {
  const std::vector<MigProfile>& a100 = MigProfilesOf("A100-SXM4-40GB");
  for (size_t i = 1; i < a100.size(); ++i) {
    EXPECT_LE(a100[i - 1].Milli(), a100[i].Milli());  // smallest first
  }
  EXPECT_EQ(a100[3].name, "3g.20gb");
  EXPECT_EQ(a100[3].Milli(), 428);
  EXPECT_EQ(a100[3].memory_bytes, 20'000'000'000);
  EXPECT_EQ(a100.back().Milli(), 1000);
  EXPECT_EQ(MigSlicesOfMilli("A100-SXM4-80GB", 571), 4);
  EXPECT_EQ(MigSlicesOfMilli("A100-SXM4-80GB", 500), 0);
}

}  // namespace
}  // namespace fleetcap::insights
