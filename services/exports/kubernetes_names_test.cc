#include "services/exports/kubernetes_names.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(DnsLabel, LowersCaseAndReplacesWhatKubernetesRefuses) {
  EXPECT_EQ(DnsLabel("vision"), "vision");
  EXPECT_EQ(DnsLabel("Team_A.b"), "team-a-b");
  EXPECT_EQ(DnsLabel("a100."), "a100");
  EXPECT_EQ(DnsLabel("x--"), "x");
  EXPECT_EQ(DnsLabel("__"), "");
}

TEST(DnsNames, RefusesASecondNameOnTheSameLabelNamingBoth) {
  DnsNames names("team");
  EXPECT_EQ(*names.Claim("ml-ops"), "ml-ops");
  EXPECT_EQ(*names.Claim("ml-ops"), "ml-ops");  // the same source again is the same object
  EXPECT_THAT(names.Claim("ML_ops"),
              StatusIs(absl::StatusCode::kInvalidArgument, AllOf(HasSubstr("team ML_ops"), HasSubstr("ml-ops"))));
}

TEST(DnsNames, RefusesAReservedLabel) {
  DnsNames names("team");
  names.Reserve("default", "Volcano's default queue");
  EXPECT_THAT(names.Claim("Default"), StatusIs(absl::StatusCode::kInvalidArgument,
                                               AllOf(HasSubstr("team Default"), HasSubstr("Volcano's default queue"))));
}

TEST(KubernetesQuantity, WholeDevicesAreIntegersAndTheRestMilli) {
  EXPECT_EQ(KubernetesQuantity(0), "0");
  EXPECT_EQ(KubernetesQuantity(1), "1m");
  EXPECT_EQ(KubernetesQuantity(1500), "1500m");
  EXPECT_EQ(KubernetesQuantity(2000), "2");
  EXPECT_EQ(KubernetesQuantity(1001), "1001m");
  EXPECT_EQ(KubernetesQuantity(1'000'000'000'000), "1000000000");
}

TEST(AcceleratorResource, FollowsTheModelUnlessOverridden) {
  policy::Flavor flavor;
  flavor.name = "f";
  for (auto [model, resource] : std::vector<std::pair<std::string, std::string>>{{"A100-SXM4-80GB", "nvidia.com/gpu"},
                                                                                 {"T4", "nvidia.com/gpu"},
                                                                                 {"tpu-v5p", "google.com/tpu"},
                                                                                 {"TPU-v4", "google.com/tpu"},
                                                                                 {"MI300X", "amd.com/gpu"},
                                                                                 {"AMD-Instinct-MI250", "amd.com/gpu"},
                                                                                 {"Mig-lookalike", "nvidia.com/gpu"}}) {
    flavor.model = model;
    EXPECT_EQ(*AcceleratorResource(flavor, {}), resource) << model;
  }
  flavor.model = "A100-SXM4-40GB";
  EXPECT_EQ(*AcceleratorResource(flavor, {{"f", "nvidia.com/mig-3g.20gb"}}), "nvidia.com/mig-3g.20gb");
  EXPECT_EQ(*AcceleratorResource(flavor, {{"other", "amd.com/gpu"}}), "nvidia.com/gpu");
}

TEST(AcceleratorResource, RefusesAnOverrideThatIsNotAnExtendedResourceNamingTheFlavor) {
  policy::Flavor flavor;
  flavor.name = "a100";
  flavor.model = "A100";
  for (const char* bad : {"gpu", "nvidia.com/", "/gpu", "Nvidia.com/gpu", "kubernetes.io/gpu", "nvidia.com/gpu x"}) {
    EXPECT_THAT(AcceleratorResource(flavor, {{"a100", bad}}),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flavor a100")))
        << bad;
  }
}

}  // namespace
}  // namespace fleetcap::exports
