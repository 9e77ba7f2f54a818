#include "ingest/k8s/objects.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/time/time.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "tests/support/status_matchers.h"

namespace fleetcap::k8s {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using nlohmann::json;
using ::testing::AllOf;
using ::testing::HasSubstr;

absl::Time T(const char* text) { return *ParseRfc3339("t", text); }

json SamplePod() {
  return json::parse(R"({
    "metadata": {"name": "train-0", "namespace": "ml", "uid": "u-1", "resourceVersion": "42",
      "creationTimestamp": "2026-03-01T10:00:00Z",
      "labels": {"fleetcap.io/team": "vision", "app": "x"},
      "annotations": {"alibabacloud.com/gpu-milli": "500", "other": "y"},
      "ownerReferences": [{"kind": "Foo", "name": "ignored", "uid": "f"},
                          {"kind": "Job", "name": "train", "uid": "job-1", "controller": true}]},
    "spec": {"nodeName": "gpu-1",
      "nodeSelector": {"nvidia.com/gpu.product": "H100"},
      "initContainers": [{"name": "init", "resources": {"limits": {"nvidia.com/gpu": "1", "cpu": "2"}}},
                         {"name": "side", "restartPolicy": "Always", "resources": {"requests": {"nvidia.com/gpu": 1}}}],
      "containers": [{"name": "main", "resources": {"requests": {"nvidia.com/gpu": "2", "memory": "1Gi"}}}],
      "overhead": {"cpu": "100m", "example.com/foo": "1"}},
    "status": {"phase": "Running", "startTime": "2026-03-01T10:00:05Z",
      "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-03-01T10:01:00Z"},
                     {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-03-01T10:00:02Z"}],
      "initContainerStatuses": [{"name": "init", "state": {"terminated": {"startedAt": "2026-03-01T10:00:10Z",
                                 "finishedAt": "2026-03-01T10:00:20Z"}}}],
      "containerStatuses": [{"name": "main", "state": {"running": {"startedAt": "2026-03-01T10:00:30Z"}},
                             "lastState": {}}]}
  })");
}

DecodeOptions Options() {
  DecodeOptions o;
  o.pod_labels = {"fleetcap.io/team"};
  o.pod_annotations = {"alibabacloud.com/gpu-milli"};
  o.namespace_labels = {"fleetcap.io/team"};
  return o;
}

TEST(DecodePod, KeepsWhatHoldsAreDerivedFrom) {
  auto pod = DecodePod(SamplePod(), Options());
  ASSERT_THAT(pod, IsOk());
  EXPECT_EQ(pod->uid, "u-1");
  EXPECT_EQ(pod->namespace_name, "ml");
  EXPECT_EQ(pod->name, "train-0");
  EXPECT_EQ(pod->resource_version, "42");
  EXPECT_EQ(pod->node_name, "gpu-1");
  EXPECT_EQ(pod->phase, "Running");
  EXPECT_EQ(pod->created, T("2026-03-01T10:00:00Z"));
  EXPECT_FALSE(pod->deletion.has_value());
  EXPECT_EQ(pod->labels, (std::map<std::string, std::string>{{"fleetcap.io/team", "vision"}}));
  EXPECT_EQ(pod->annotations.size(), 1u);
  ASSERT_TRUE(pod->controller.has_value());
  EXPECT_EQ(pod->controller->kind, "Job");
  EXPECT_EQ(pod->controller->uid, "job-1");
  ASSERT_EQ(pod->init_containers.size(), 2u);
  EXPECT_EQ(pod->init_containers[0].limits, (std::map<std::string, int64_t>{{"nvidia.com/gpu", 1000}}));
  EXPECT_FALSE(pod->init_containers[0].restartable);
  EXPECT_TRUE(pod->init_containers[1].restartable);
  EXPECT_EQ(pod->init_containers[1].requests.at("nvidia.com/gpu"), 1000);  // a JSON number is accepted too
  ASSERT_EQ(pod->containers.size(), 1u);
  EXPECT_EQ(pod->containers[0].requests, (std::map<std::string, int64_t>{{"nvidia.com/gpu", 2000}}));
  EXPECT_EQ(pod->overhead, (std::map<std::string, int64_t>{{"example.com/foo", 1000}}));
  EXPECT_EQ(pod->node_selector.at("nvidia.com/gpu.product"), "H100");
  EXPECT_EQ(pod->start_time, T("2026-03-01T10:00:05Z"));
  EXPECT_EQ(pod->scheduled_at, T("2026-03-01T10:00:02Z"));
  EXPECT_EQ(pod->first_started, T("2026-03-01T10:00:10Z"));
  EXPECT_EQ(pod->last_finished, T("2026-03-01T10:00:20Z"));
  EXPECT_EQ(pod->containers_terminated, 0);
}

TEST(DecodePod, ErrorsNameThePodAndTheField) {
  json pod = SamplePod();
  pod["spec"]["containers"][0]["resources"]["requests"]["nvidia.com/gpu"] = "two";
  auto decoded = DecodePod(pod, Options());
  EXPECT_THAT(decoded, StatusIs(absl::StatusCode::kInvalidArgument,
                                AllOf(HasSubstr("pod ml/train-0"),
                                      HasSubstr("spec.containers[0].resources.requests[\"nvidia.com/gpu\"]"))));

  pod = SamplePod();
  pod["status"]["containerStatuses"][0]["state"]["running"]["startedAt"] = "yesterday";
  decoded = DecodePod(pod, Options());
  EXPECT_THAT(decoded, StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("status.containerStatuses[0].state.running.startedAt")));

  pod = SamplePod();
  pod["metadata"].erase("uid");
  EXPECT_THAT(DecodePod(pod, Options()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("metadata.uid: missing")));
  EXPECT_THAT(DecodePod(json::array(), Options()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a JSON object")));
  EXPECT_THAT(DecodePod(json::object({{"metadata", 3}}), Options()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("metadata: not an object")));
}

TEST(DecodePod, TerminatedContainersAreCounted) {
  json pod = SamplePod();
  pod["status"]["phase"] = "Succeeded";
  pod["status"]["containerStatuses"][0]["state"] =
      json::parse(R"({"terminated": {"startedAt": "2026-03-01T10:00:30Z", "finishedAt": "2026-03-01T12:00:00Z"}})");
  pod["metadata"]["deletionTimestamp"] = "2026-03-01T12:00:30Z";
  auto decoded = DecodePod(pod, Options());
  ASSERT_THAT(decoded, IsOk());
  EXPECT_EQ(decoded->containers_terminated, 1);
  EXPECT_EQ(decoded->last_finished, T("2026-03-01T12:00:00Z"));
  EXPECT_EQ(decoded->deletion, T("2026-03-01T12:00:30Z"));
}

TEST(DecodeNode, KeepsLabelsAndAllResources) {
  auto node = DecodeNode(json::parse(R"({
    "metadata": {"name": "gpu-1", "uid": "n-1", "resourceVersion": "7", "creationTimestamp": "2026-01-01T00:00:00Z",
                 "labels": {"nvidia.com/gpu.product": "H100-SXM5-80GB"}},
    "status": {"capacity": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8"},
               "allocatable": {"cpu": "63500m", "nvidia.com/gpu": "7"}}})"));
  ASSERT_THAT(node, IsOk());
  EXPECT_EQ(node->name, "gpu-1");
  EXPECT_EQ(node->labels.at("nvidia.com/gpu.product"), "H100-SXM5-80GB");
  EXPECT_EQ(node->capacity.at("cpu"), 64000);
  EXPECT_EQ(node->capacity.at("nvidia.com/gpu"), 8000);
  EXPECT_EQ(node->allocatable.at("nvidia.com/gpu"), 7000);
  EXPECT_THAT(DecodeNode(json::parse(R"({"metadata": {"name": "x", "uid": "u"}})")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("node x: metadata.creationTimestamp: missing")));
}

TEST(DecodeController, TakesTheListedKindAndItsOwner) {
  auto rs = DecodeController(json::parse(R"({
    "metadata": {"name": "web-5d8f", "namespace": "shop", "uid": "rs-1",
                 "ownerReferences": [{"kind": "Deployment", "name": "web", "uid": "d-1", "controller": true}]}})"),
                             "ReplicaSet");
  ASSERT_THAT(rs, IsOk());
  EXPECT_EQ(rs->kind, "ReplicaSet");
  EXPECT_EQ(rs->namespace_name, "shop");
  ASSERT_TRUE(rs->controller.has_value());
  EXPECT_EQ(rs->controller->name, "web");
}

TEST(DecodeNamespace, KeepsOnlyTheTeamKeys) {
  DecodeOptions o = Options();
  o.namespace_annotations = {"fleetcap.io/team"};
  auto ns = DecodeNamespace(json::parse(R"({"metadata": {"name": "ml", "uid": "ns-1",
      "labels": {"fleetcap.io/team": "vision", "kubernetes.io/metadata.name": "ml"},
      "annotations": {"fleetcap.io/team": "other"}}})"),
                            o);
  ASSERT_THAT(ns, IsOk());
  EXPECT_EQ(ns->labels.size(), 1u);
  EXPECT_EQ(ns->annotations.at("fleetcap.io/team"), "other");
}

TEST(ResourceVersionOf, ReadsMetadataOrEmpty) {
  EXPECT_EQ(ResourceVersionOf(json::parse(R"({"metadata": {"resourceVersion": "12"}})")), "12");
  EXPECT_EQ(ResourceVersionOf(json::parse(R"({"metadata": {}})")), "");
  EXPECT_EQ(ResourceVersionOf(json::parse("3")), "");
}

}  // namespace
}  // namespace fleetcap::k8s
