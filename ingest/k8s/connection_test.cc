#include "ingest/k8s/connection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"
#include "tests/support/test_dir.h"

namespace fleetcap::k8s {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::fleetcap::testing::TestDir;
using ::testing::HasSubstr;

std::string NoEnv(const char*) { return ""; }

TEST(LoadKubeconfig, CurrentContextClusterAndUser) {
  TestDir dir;
  const std::string path = dir.Write("config", R"(apiVersion: v1
kind: Config
current-context: prod
contexts:
- name: dev
  context: {cluster: dev, user: dev}
- name: prod
  context: {cluster: prod, user: ops}
clusters:
- name: dev
  cluster: {server: "https://dev:6443"}
- name: prod
  cluster:
    server: https://prod.example:6443/
    certificate-authority-data: Q0EtUEVN
users:
- name: ops
  user:
    tokenFile: token
    client-certificate-data: Q0VSVA==
    client-key: keys/ops.key
)");
  auto conn = LoadKubeconfig(path);
  ASSERT_THAT(conn, IsOk());
  EXPECT_EQ(conn->server, "https://prod.example:6443");
  EXPECT_EQ(conn->tls.ca_pem, "CA-PEM");
  EXPECT_EQ(conn->tls.cert_pem, "CERT");
  EXPECT_EQ(conn->tls.key_file, dir.path() + "/keys/ops.key");
  EXPECT_EQ(conn->token_file, dir.path() + "/token");
  EXPECT_FALSE(conn->tls.insecure);
}

TEST(LoadKubeconfig, InsecureAndInlineToken) {
  TestDir dir;
  auto conn = LoadKubeconfig(dir.Write("config", R"(current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://k:443", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: abc}}]
)"));
  ASSERT_THAT(conn, IsOk());
  EXPECT_TRUE(conn->tls.insecure);
  EXPECT_EQ(conn->token, "abc");
}

TEST(LoadKubeconfig, ErrorsNameTheField) {
  TestDir dir;
  auto missing = LoadKubeconfig(dir.Write("a", "contexts: []\n"));
  EXPECT_THAT(missing, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("current-context")));
  auto no_cluster =
      LoadKubeconfig(dir.Write("b", "current-context: c\ncontexts: [{name: c, context: {cluster: x}}]\n"));
  EXPECT_THAT(no_cluster, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no cluster named \"x\"")));
  auto exec = LoadKubeconfig(dir.Write("c", R"(current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://k"}}]
users: [{name: u, user: {exec: {command: gcloud}}}]
)"));
  EXPECT_THAT(exec, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("exec")));
  EXPECT_THAT(LoadKubeconfig(dir.path() + "/absent"), StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(ResolveConnection, FlagsThenKubeconfigThenInCluster) {
  ConnectionFlags flags;
  flags.kube_api = "http://127.0.0.1:8001/";
  flags.token_file = "/t";
  auto conn = ResolveConnection(flags, NoEnv);
  ASSERT_THAT(conn, IsOk());
  EXPECT_EQ(conn->server, "http://127.0.0.1:8001");
  EXPECT_EQ(conn->token_file, "/t");
  flags.kube_api = "127.0.0.1:8001";
  EXPECT_THAT(ResolveConnection(flags, NoEnv), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--kube-api")));

  auto in_cluster = ResolveConnection(
      ConnectionFlags{},
      [](const char* name) -> std::string {
        if (std::string(name) == "KUBERNETES_SERVICE_HOST") return "10.0.0.1";
        if (std::string(name) == "KUBERNETES_SERVICE_PORT") return "443";
        return "";
      },
      "/sa");
  ASSERT_THAT(in_cluster, IsOk());
  EXPECT_EQ(in_cluster->server, "https://10.0.0.1:443");
  EXPECT_EQ(in_cluster->token_file, "/sa/token");
  EXPECT_EQ(in_cluster->tls.ca_file, "/sa/ca.crt");
  EXPECT_THAT(ResolveConnection(ConnectionFlags{}, NoEnv), StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(TokenSource, RereadsWhenDueAndWhenRefused) {
  TestDir dir;
  const std::string file = dir.Write("token", "first\n");
  SimulatedClock clock(absl::FromUnixSeconds(1000));
  TokenSource tokens("", file, absl::Seconds(60), &clock);
  EXPECT_EQ(tokens.Get(), "first");
  dir.Write("token", "second");
  EXPECT_EQ(tokens.Get(), "first");  // not due yet
  clock.Advance(absl::Seconds(61));
  EXPECT_EQ(tokens.Get(), "second");
  EXPECT_EQ(tokens.reloads(), 1);
  dir.Write("token", "third");
  tokens.Invalidate();
  EXPECT_EQ(tokens.Get(), "third");
  EXPECT_EQ(tokens.reloads(), 2);
  TokenSource fixed("static", "", absl::Seconds(1), &clock);
  EXPECT_EQ(fixed.Get(), "static");
}

}  // namespace
}  // namespace fleetcap::k8s
