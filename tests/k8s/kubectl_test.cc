// The fixture speaks Kubernetes: the real kubectl (Debian's package) is its
// client, for discovery, paginated lists and watches.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "nlohmann/json.hpp"
#include "tests/k8s/fixture/accelerator_zoo.h"
#include "tests/k8s/fixture/fake_api_server.h"
#include "tests/k8s/fixture/objects.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

class KubectlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(fleetcap::testing::kKubectlBin).empty() ||
        !std::filesystem::exists(fleetcap::testing::kKubectlBin)) {
      GTEST_SKIP() << "kubectl is not installed (scripts/bootstrap.sh installs it)";
    }
    testing::FakeApiOptions options;
    auto api = testing::FakeApiServer::Start(options);
    ASSERT_THAT(api, IsOk());
    api_ = std::move(*api);
    for (auto& [plural, object] : testing::ZooObjects(absl::FromUnixSeconds(1767225600))) api_->Apply(plural, object);
  }
  void TearDown() override { api_.reset(); }
  std::vector<std::string> Kubectl(std::vector<std::string> args) {
    std::vector<std::string> argv = {fleetcap::testing::kKubectlBin, "--server=" + api_->url(),
                                     "--cache-dir=" + home_.path() + "/cache"};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  std::vector<std::string> Env() { return {"HOME=" + home_.path(), "KUBECONFIG=" + home_.path() + "/none"}; }

  testing::TestDir home_{"kubectl"};
  std::unique_ptr<testing::FakeApiServer> api_;
};

TEST_F(KubectlTest, GetNodesAndPodsInEveryNamespaceAsJson) {
  auto run = testing::Run(Kubectl({"get", "nodes,pods", "-A", "-o", "json"}), absl::Seconds(60), Env());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto list = nlohmann::json::parse(run.out);
  int nodes = 0, pods = 0;
  for (const auto& item : list["items"]) {
    if (item["kind"] == "Node") ++nodes;
    if (item["kind"] == "Pod") ++pods;
  }
  EXPECT_EQ(nodes, static_cast<int>(api_->count("nodes")));
  EXPECT_EQ(pods, static_cast<int>(api_->count("pods")));
  EXPECT_GT(pods, 10);
}

TEST_F(KubectlTest, PaginatedListsAndTheDefaultTable) {
  const int lists = api_->counters().lists;
  auto run =
      testing::Run(Kubectl({"get", "pods", "-n", "vision", "--chunk-size=2", "-o", "name"}), absl::Seconds(60), Env());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("pod/h100-0-pod-0")) << run.out;
  EXPECT_GE(api_->counters().lists - lists, 3);  // several pages
  auto table = testing::Run(Kubectl({"get", "nodes"}), absl::Seconds(60), Env());
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("tpu-0")) << table.out;
}

TEST_F(KubectlTest, WatchSeesNewPods) {
  auto watch = testing::Subprocess::Start(Kubectl({"get", "pods", "-n", "research", "--watch", "-o", "name"}), Env());
  ASSERT_THAT(watch, IsOk());
  ASSERT_THAT((*watch)->WaitForLine("pod/tpu-0-pod-", absl::Seconds(30)), IsOk()) << (*watch)->Stderr();
  testing::PodSpec p;
  p.ns = "research";
  p.name = "watched-pod";
  p.created = absl::Now();
  api_->Apply("pods", testing::PodJson(p));
  EXPECT_THAT((*watch)->WaitForLine("pod/watched-pod", absl::Seconds(30)), IsOk())
      << (*watch)->Stdout() << (*watch)->Stderr();
}

}  // namespace
}  // namespace fleetcap
