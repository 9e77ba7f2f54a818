// HTTPS as real clusters serve it: fleetcap-ingest k8s verifies the API
// server against the kubeconfig's CA (or skips verification when told to),
// presents a client certificate when the server demands one, and sends its
// bearer token; kubectl is a client of the same server.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "store/pg_live_inventory_repository.h"
#include "tests/k8s/fixture/accelerator_zoo.h"
#include "tests/k8s/fixture/fake_api_server.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TlsTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    for (const char* who : {"server", "client"}) {
      auto made = testing::Run({"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                "-keyout", dir_.path() + "/" + who + ".key", "-out", dir_.path() + "/" + who + ".crt",
                                "-subj", absl::StrCat("/CN=fleetcap-", who), "-addext", "subjectAltName=IP:127.0.0.1"});
      ASSERT_EQ(made.exit_code, 0) << made.err;
    }
  }
  void TearDown() override { api_.reset(); }
  void StartApi(bool client_certificates) {
    testing::FakeApiOptions options;
    options.token = "tls-token";
    options.tls = testing::TlsFiles{dir_.path() + "/server.crt", dir_.path() + "/server.key",
                                    client_certificates ? dir_.path() + "/client.crt" : ""};
    auto api = testing::FakeApiServer::Start(options);
    ASSERT_THAT(api, IsOk());
    api_ = std::move(*api);
    for (auto& [plural, object] : testing::ZooObjects(absl::FromUnixSeconds(1767225600))) api_->Apply(plural, object);
  }
  std::string Kubeconfig(const std::string& cluster_extra, const std::string& user_extra) {
    const std::string path = dir_.path() + "/kubeconfig";
    std::ofstream(path) << "apiVersion: v1\nkind: Config\ncurrent-context: fixture\n"
                        << "contexts:\n- name: fixture\n  context: {cluster: fixture, user: fleetcap}\n"
                        << "clusters:\n- name: fixture\n  cluster:\n    server: " << api_->url() << "\n"
                        << cluster_extra << "users:\n- name: fleetcap\n  user:\n    token: tls-token\n"
                        << user_extra;
    return path;
  }
  testing::RunResult Ingest(std::vector<std::string> connection, absl::Duration timeout = absl::Seconds(60)) {
    std::vector<std::string> args = {
        fleetcap::testing::kIngestBin, "k8s", "--cluster", "tls", "--db", db_->uri(), "--exit-after-sync"};
    args.insert(args.end(), connection.begin(), connection.end());
    return testing::Run(args, timeout);
  }
  int64_t HeldH100() {
    store::PgLiveInventoryRepository repo(pool());
    auto summary = repo.SummarizeAt("tls", absl::FromUnixSeconds(1767225600) + absl::Hours(3));
    if (!summary.ok()) return -1;
    for (const auto& m : *summary) {
      if (m.model == "H100-SXM5-80GB") return m.held_milli;
    }
    return 0;
  }

  testing::TestDir dir_{"k8s-tls"};
  std::unique_ptr<testing::FakeApiServer> api_;
};

TEST_F(TlsTest, KubeconfigWithTheCertificateAuthorityAndAToken) {
  StartApi(false);
  const std::string ca = absl::Base64Escape(Slurp(dir_.path() + "/server.crt"));
  auto run = Ingest({"--kubeconfig", Kubeconfig("    certificate-authority-data: " + ca + "\n", "")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(HeldH100(), 6000);
  EXPECT_EQ(api_->counters().unauthorized, 0);
}

TEST_F(TlsTest, ClientCertificateWhenTheServerDemandsOneAndInsecureSkipVerify) {
  StartApi(true);
  const std::string key = absl::Base64Escape(Slurp(dir_.path() + "/client.key"));
  auto run =
      Ingest({"--kubeconfig", Kubeconfig("    insecure-skip-tls-verify: true\n",
                                         "    client-certificate: client.crt\n    client-key-data: " + key + "\n")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(HeldH100(), 6000);
}

TEST_F(TlsTest, AServerThatCannotBeVerifiedIsNotTrusted) {
  StartApi(false);
  std::ofstream(dir_.path() + "/token") << "tls-token";
  // No CA: the server's self-signed certificate is refused; the ingest keeps retrying.
  auto run = Ingest({"--kube-api", api_->url(), "--token-file", dir_.path() + "/token"}, absl::Seconds(4));
  EXPECT_NE(run.exit_code, 0);
  EXPECT_THAT(run.err, HasSubstr("certificate")) << run.err;
  EXPECT_EQ(api_->counters().lists, 0);
  // With the CA file it is.
  run = Ingest(
      {"--kube-api", api_->url(), "--token-file", dir_.path() + "/token", "--ca-file", dir_.path() + "/server.crt"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
}

TEST_F(TlsTest, KubectlOverHttpsWithAToken) {
  if (!std::filesystem::exists(fleetcap::testing::kKubectlBin)) GTEST_SKIP() << "kubectl is not installed";
  StartApi(false);
  auto run = testing::Run({fleetcap::testing::kKubectlBin, "--server=" + api_->url(),
                           "--certificate-authority=" + dir_.path() + "/server.crt", "--token=tls-token",
                           "--cache-dir=" + dir_.path() + "/cache", "get", "nodes", "-o", "name"},
                          absl::Seconds(60), {"HOME=" + dir_.path(), "KUBECONFIG=" + dir_.path() + "/none"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("node/tpu-0")) << run.out;
}

}  // namespace
}  // namespace fleetcap
