// TLS on both transports with certificates made at test time by the
// openssl command: encrypted gRPC and HTTPS, plaintext refused, and
// optional client-certificate authentication.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_certificates.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

class TlsTest : public testing::CertificatesTest {
 protected:
  testing::RunResult WhoAmI(const testing::ApiProcess& api, std::vector<std::string> extra) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin,
                                     "token",
                                     "whoami",
                                     "--server",
                                     api.grpc_address(),
                                     "--token",
                                     api.admin_token,
                                     "--timeout",
                                     "5"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::Run(argv, absl::Seconds(30));
  }
};

TEST_F(TlsTest, GrpcWithAServerCertificate) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto api =
      testing::StartApi(fleetcap::testing::kApiBin, (*db)->uri(),
                        {"--tls-cert", File("server.pem"), "--tls-key", File("server.key"), "--http-listen", ""});
  ASSERT_THAT(api, IsOk());
  EXPECT_EQ(api->http_port, 0);
  auto secure = WhoAmI(*api, {"--tls-ca", File("ca.pem")});
  EXPECT_EQ(secure.exit_code, 0) << secure.err;
  EXPECT_THAT(secure.out, HasSubstr("role admin"));
  auto plaintext = WhoAmI(*api, {});
  EXPECT_EQ(plaintext.exit_code, 1);
  EXPECT_THAT(plaintext.err, HasSubstr("cannot reach fleetcap-api")) << plaintext.err;
  // A CA that did not sign the server's certificate is refused.
  auto wrong_ca = WhoAmI(*api, {"--tls-ca", File("client.pem")});
  EXPECT_EQ(wrong_ca.exit_code, 1);
}

TEST_F(TlsTest, GrpcClientCertificatesWhenAsked) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto api = testing::StartApi(fleetcap::testing::kApiBin, (*db)->uri(),
                               {"--tls-cert", File("server.pem"), "--tls-key", File("server.key"), "--tls-client-ca",
                                File("ca.pem"), "--http-listen", ""});
  ASSERT_THAT(api, IsOk());
  EXPECT_EQ(WhoAmI(*api, {"--tls-ca", File("ca.pem")}).exit_code, 1);
  auto with_cert =
      WhoAmI(*api, {"--tls-ca", File("ca.pem"), "--tls-cert", File("client.pem"), "--tls-key", File("client.key")});
  EXPECT_EQ(with_cert.exit_code, 0) << with_cert.err;
}

// HTTPS: the JSON API over TLS, verified against the test CA with a bearer token.
TEST_F(TlsTest, HttpsServesTheJsonApi) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto api = testing::StartApi(fleetcap::testing::kApiBin, (*db)->uri(),
                               {"--tls-cert", File("server.pem"), "--tls-key", File("server.key")});
  ASSERT_THAT(api, IsOk());
  const std::string https = "https://127.0.0.1:" + std::to_string(api->http_port) + "/v1/tokens/self";
  testing::HttpTls tls;
  tls.ca_file = File("ca.pem");
  auto response = testing::HttpRequest("GET", https, "", api->admin_token, tls);
  ASSERT_THAT(response, IsOk());
  EXPECT_EQ(response->status, 200) << response->body;
  // Plain HTTP on the TLS port gets no answer in the clear.
  auto plain = testing::HttpRequest("GET", "http://127.0.0.1:" + std::to_string(api->http_port) + "/v1/tokens/self", "",
                                    api->admin_token);
  EXPECT_FALSE(plain.ok() && plain->status == 200);
}

TEST_F(TlsTest, BadTlsFlagsAreNamed) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto only_cert = testing::Run({fleetcap::testing::kApiBin, "--db", (*db)->uri(), "--grpc-listen", "127.0.0.1:0",
                                 "--http-listen", "127.0.0.1:0", "--tls-cert", File("server.pem")});
  EXPECT_EQ(only_cert.exit_code, 1);
  EXPECT_THAT(only_cert.err, HasSubstr("--tls-cert and --tls-key")) << only_cert.err;
  auto missing =
      testing::Run({fleetcap::testing::kApiBin, "--db", (*db)->uri(), "--grpc-listen", "127.0.0.1:0", "--http-listen",
                    "127.0.0.1:0", "--tls-cert", "/nonexistent.pem", "--tls-key", File("server.key")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("--tls-cert: cannot read \"/nonexistent.pem\"")) << missing.err;
}

}  // namespace
}  // namespace fleetcap
