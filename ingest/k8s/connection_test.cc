#include "ingest/k8s/connection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ingest/openb/test_dir.h"


namespace fleetcap::k8s {
namespace {

using ::testing::HasSubstr;

using TempDir = openb::TestDir;

std::string NoEnv(const char*) { return ""; }

TEST(LoadKubeconfig, CurrentContextClusterAndUser) {
  TempDir dir;
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
  ASSERT_TRUE(conn.ok()) << conn.status();
  EXPECT_EQ(conn->server, "https://prod.example:6443");
  EXPECT_EQ(conn->tls.ca_pem, "CA-PEM");
  EXPECT_EQ(conn->tls.cert_pem, "CERT");
  EXPECT_EQ(conn->tls.key_file, dir.path() + "/keys/ops.key");
  EXPECT_EQ(conn->token_file, dir.path() + "/token");
  EXPECT_FALSE(conn->tls.insecure);
}

TEST(LoadKubeconfig, InsecureAndInlineToken) {
  TempDir dir;
  auto conn = LoadKubeconfig(dir.Write("config", R"(current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://k:443", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: abc}}]
)"));
  ASSERT_TRUE(conn.ok()) << conn.status();
  EXPECT_TRUE(conn->tls.insecure);
  EXPECT_EQ(conn->token, "abc");
}

TEST(LoadKubeconfig, ErrorsNameTheField) {
  TempDir dir;
  auto missing = LoadKubeconfig(dir.Write("a", "contexts: []\n"));
  EXPECT_THAT(missing.status().message(), HasSubstr("current-context"));
  auto no_cluster = LoadKubeconfig(dir.Write("b", "current-context: c\ncontexts: [{name: c, context: {cluster: x}}]\n"));
  EXPECT_THAT(std::string(no_cluster.status().message()), HasSubstr("no cluster named \"x\""));
  auto exec = LoadKubeconfig(dir.Write("c", R"(current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://k"}}]
users: [{name: u, user: {exec: {command: gcloud}}}]
)"));
  EXPECT_THAT(exec.status().message(), HasSubstr("exec"));
  EXPECT_EQ(LoadKubeconfig(dir.path() + "/absent").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ResolveConnection, FlagsThenKubeconfigThenInCluster) {
  ConnectionFlags flags;
  flags.kube_api = "http://127.0.0.1:8001/";
  flags.token_file = "/t";
  auto conn = ResolveConnection(flags, NoEnv);
  ASSERT_TRUE(conn.ok());
  EXPECT_EQ(conn->server, "http://127.0.0.1:8001");
  EXPECT_EQ(conn->token_file, "/t");
  flags.kube_api = "127.0.0.1:8001";
  EXPECT_THAT(ResolveConnection(flags, NoEnv).status().message(), HasSubstr("--kube-api"));

  auto in_cluster = ResolveConnection(ConnectionFlags{}, [](const char* name) -> std::string {
    if (std::string(name) == "KUBERNETES_SERVICE_HOST") return "10.0.0.1";
    if (std::string(name) == "KUBERNETES_SERVICE_PORT") return "443";
    return "";
  }, "/sa");
  ASSERT_TRUE(in_cluster.ok());
  EXPECT_EQ(in_cluster->server, "https://10.0.0.1:443");
  EXPECT_EQ(in_cluster->token_file, "/sa/token");
  EXPECT_EQ(in_cluster->tls.ca_file, "/sa/ca.crt");
  EXPECT_EQ(ResolveConnection(ConnectionFlags{}, NoEnv).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TokenSource, RereadsWhenDueAndWhenRefused) {
  TempDir dir;
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
