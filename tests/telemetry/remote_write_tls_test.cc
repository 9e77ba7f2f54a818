// The remote_write receiver over HTTPS, with certificates made at test time
// by the openssl command: client certificates signed by the client CA are
// served, any other client is refused in the handshake, plain HTTP gets no
// answer, and verified client certificates count as authentication for
// listening beyond loopback (TLS alone does not).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_replace.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_certificates.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

std::string HttpsUrl(const testing::IngestProcess& ingest) {
  return absl::StrReplaceAll(ingest.write_url(), {{"http://", "https://"}});
}

class RemoteWriteTlsTest : public testing::CertificatesTest {
 protected:
  void SetUp() override {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = std::move(*db);
  }

  std::vector<std::string> ServerTls() const {
    return {"--remote-write-tls-cert", File("server.pem"), "--remote-write-tls-key", File("server.key")};
  }
  std::vector<std::string> ServerTlsWithClientCa() const {
    std::vector<std::string> flags = ServerTls();
    flags.insert(flags.end(), {"--remote-write-tls-client-ca", File("ca.pem")});
    return flags;
  }
  static testing::HttpTls ClientTls(const std::string& who) {
    testing::HttpTls tls;
    tls.ca_file = File("ca.pem");
    if (!who.empty()) {
      tls.cert_file = File(who + ".pem");
      tls.key_file = File(who + ".key");
    }
    return tls;
  }

  std::unique_ptr<testing::TestDatabase> db_;
};

TEST_F(RemoteWriteTlsTest, AClientCertificateSignedByTheClientCaIsServed) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", ServerTlsWithClientCa());
  ASSERT_THAT(ingest, IsOk());
  auto served = testing::PostRemoteWrite(HttpsUrl(*ingest), testing::OneSampleBody(), {}, ClientTls("client"));
  ASSERT_THAT(served, IsOk());
  EXPECT_EQ(served->status, 204) << served->body;
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_received_total"), 1);
}

TEST_F(RemoteWriteTlsTest, WithoutAClientCertificateOrWithOneFromAnotherCaTheClientIsRefused) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", ServerTlsWithClientCa());
  ASSERT_THAT(ingest, IsOk());
  auto without = testing::PostRemoteWrite(HttpsUrl(*ingest), testing::OneSampleBody(), {}, ClientTls(""));
  EXPECT_THAT(without, Not(IsOk())) << "answered " << without->status;
  auto rogue = testing::PostRemoteWrite(HttpsUrl(*ingest), testing::OneSampleBody(), {}, ClientTls("rogue"));
  EXPECT_THAT(rogue, Not(IsOk())) << "answered " << rogue->status;
  // The refused clients reached no request handler; the next good one is served alone.
  auto served = testing::PostRemoteWrite(HttpsUrl(*ingest), testing::OneSampleBody(), {}, ClientTls("client"));
  ASSERT_THAT(served, IsOk());
  EXPECT_EQ(served->status, 204) << served->body;
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total"), 1);
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_received_total"), 1);
}

TEST_F(RemoteWriteTlsTest, PlainHttpToTheTlsPortIsNotServed) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", ServerTls());
  ASSERT_THAT(ingest, IsOk());
  auto plain = testing::PostRemoteWrite(ingest->write_url(), testing::OneSampleBody());
  EXPECT_FALSE(plain.ok() && plain->status == 204);
  // Without client certificates asked for, any client that trusts the server's CA is served over HTTPS.
  auto served = testing::PostRemoteWrite(HttpsUrl(*ingest), testing::OneSampleBody(), {}, ClientTls(""));
  ASSERT_THAT(served, IsOk());
  EXPECT_EQ(served->status, 204) << served->body;
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_received_total"), 1)
      << "the plain HTTP request was not decoded";
}

TEST_F(RemoteWriteTlsTest, VerifiedClientCertificatesAllowListeningBeyondLoopback) {
  std::vector<std::string> with_client_ca = {"--remote-write-listen", "0.0.0.0:0"};
  const std::vector<std::string> tls_client_ca = ServerTlsWithClientCa();
  with_client_ca.insert(with_client_ca.end(), tls_client_ca.begin(), tls_client_ca.end());
  auto ingest = testing::StartIngest(db_->uri(), "c1", with_client_ca);
  ASSERT_THAT(ingest, IsOk());
  auto served = testing::PostRemoteWrite(HttpsUrl(*ingest), testing::OneSampleBody(), {}, ClientTls("client"));
  ASSERT_THAT(served, IsOk());
  EXPECT_EQ(served->status, 204) << served->body;

  // TLS without client certificates encrypts, but anyone may send: not enough.
  const testing::TestDir wal("wal");
  std::vector<std::string> argv = {
      fleetcap::testing::kIngestBin, "prometheus", "--db",      db_->uri(), "--cluster", "c1",
      "--remote-write-listen",       "0.0.0.0:0",  "--wal-dir", wal.path()};
  const std::vector<std::string> tls_only = ServerTls();
  argv.insert(argv.end(), tls_only.begin(), tls_only.end());
  auto refused = testing::Run(argv, absl::Seconds(60));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("is not loopback and remote_write has no authentication")) << refused.err;
}

TEST_F(RemoteWriteTlsTest, BadTlsFlagsAreNamed) {
  auto only_cert = testing::StartIngest(db_->uri(), "c1", {"--remote-write-tls-cert", File("server.pem")});
  EXPECT_THAT(only_cert, StatusIs(absl::StatusCode::kUnavailable,
                                  HasSubstr("--remote-write-tls-cert and --remote-write-tls-key")));
  std::vector<std::string> missing_ca = ServerTls();
  missing_ca.insert(missing_ca.end(), {"--remote-write-tls-client-ca", "/nonexistent-ca.pem"});
  auto no_ca = testing::StartIngest(db_->uri(), "c1", missing_ca);
  EXPECT_THAT(no_ca, StatusIs(absl::StatusCode::kUnavailable,
                              HasSubstr("--remote-write-tls-client-ca: cannot read \"/nonexistent-ca.pem\"")));
}

}  // namespace
}  // namespace fleetcap
