#include "ingest/k8s/team.h"

#include <gtest/gtest.h>

namespace fleetcap::k8s {
namespace {

TEST(PodTeamLabel, TheFirstConfiguredKeyThatIsSetElseEmpty) {
  TeamConfig config;
  config.pod_label_keys = {"fleetcap.io/team", "team"};
  EXPECT_EQ(PodTeamLabel({}, config), "");
  EXPECT_EQ(PodTeamLabel({{"team", "speech"}, {"other", "x"}}, config), "speech");
  EXPECT_EQ(PodTeamLabel({{"team", "speech"}, {"fleetcap.io/team", "vision"}}, config), "vision");
  EXPECT_EQ(PodTeamLabel({{"fleetcap.io/team", ""}, {"team", "speech"}}, config), "speech");
}

PodObject OwnedBy(const std::string& kind, const std::string& name, const std::string& uid) {
  PodObject pod;
  pod.name = "pod-1";
  pod.controller = OwnerRef{kind, name, uid};
  return pod;
}

TEST(ControllerIndex, FollowsOwnersToTheTop) {
  ControllerIndex index;
  index.Upsert({"ReplicaSet", "ns", "web-5d8f", "rs-1", "1", OwnerRef{"Deployment", "web", "d-1"}});
  index.Upsert({"Deployment", "ns", "web", "d-1", "1", std::nullopt});
  index.Upsert({"Job", "ns", "nightly-123", "j-1", "1", OwnerRef{"CronJob", "nightly", "cj-1"}});
  std::string unresolved;
  EXPECT_EQ(index.TopController(OwnedBy("ReplicaSet", "web-5d8f", "rs-1"), &unresolved),
            (WorkloadRef{"Deployment", "web"}));
  EXPECT_EQ(unresolved, "");
  // The CronJob was not seen (yet): the chain stops at it, by its reference.
  EXPECT_EQ(index.TopController(OwnedBy("Job", "nightly-123", "j-1"), &unresolved),
            (WorkloadRef{"CronJob", "nightly"}));
  EXPECT_EQ(unresolved, "cj-1");
  // Unknown kinds are named by the ownerReference and are not waited for.
  EXPECT_EQ(index.TopController(OwnedBy("RayCluster", "ray", "rc-1"), &unresolved), (WorkloadRef{"RayCluster", "ray"}));
  EXPECT_EQ(unresolved, "");
  PodObject bare;
  bare.name = "lonely";
  EXPECT_EQ(index.TopController(bare), (WorkloadRef{"Pod", "lonely"}));
  index.Remove("d-1");
  EXPECT_EQ(index.TopController(OwnedBy("ReplicaSet", "web-5d8f", "rs-1"), &unresolved),
            (WorkloadRef{"Deployment", "web"}));
  EXPECT_EQ(unresolved, "d-1");
}

TEST(ControllerIndex, ACycleEnds) {
  ControllerIndex index;
  index.Upsert({"ReplicaSet", "ns", "a", "a", "1", OwnerRef{"ReplicaSet", "b", "b"}});
  index.Upsert({"ReplicaSet", "ns", "b", "b", "1", OwnerRef{"ReplicaSet", "a", "a"}});
  EXPECT_EQ(index.TopController(OwnedBy("ReplicaSet", "a", "a")).kind, "ReplicaSet");
}

}  // namespace
}  // namespace fleetcap::k8s
