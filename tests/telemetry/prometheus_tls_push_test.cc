// The real client over TLS: Prometheus 2.42 scrapes the fixture exporter
// and remote-writes to fleetcap-ingest over HTTPS, presenting a client
// certificate (tls_config: ca_file, cert_file, key_file) that the
// receiver's --remote-write-tls-client-ca signed.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_certificates.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/fixture_exporter.h"
#include "tests/telemetry/prometheus_process.h"
#include "tests/telemetry/push_pull_rows.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;

// A counter of fleetcap's /metrics; absent is 0.
double Metric(int port, const std::string& name, const std::string& label_filter = "") {
  auto value = testing::ScrapeMetric(port, name, label_filter);
  return value.ok() ? *value : 0;
}

TEST(PrometheusTlsPush, PrometheusPushesWithAClientCertificate) {
  auto certs = testing::TestCertificates::Make();
  ASSERT_THAT(certs, IsOk());
  auto file = [&](const std::string& name) { return (*certs)->File(name); };
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto ingest = testing::StartIngest((*db)->uri(), "push",
                                     {"--remote-write-tls-cert", file("server.pem"), "--remote-write-tls-key",
                                      file("server.key"), "--remote-write-tls-client-ca", file("ca.pem")});
  ASSERT_THAT(ingest, IsOk());

  // Prometheus remote-writes only samples newer than its own start (see prometheus_e2e_test.cc).
  const int64_t t0 = (absl::ToUnixMillis(absl::Now()) / 60'000 + 2) * 60'000;
  testing::FixtureExporter exporter(t0, 10'000);
  ASSERT_TRUE(exporter.Start());
  const std::string tls_config =
      absl::StrCat("    tls_config:\n      ca_file: ", file("ca.pem"), "\n      cert_file: ", file("client.pem"),
                   "\n      key_file: ", file("client.key"), "\n");
  // The same configuration as the plain tests', with the receiver's URL on https.
  const std::string config =
      absl::StrReplaceAll(testing::PushPullConfig(exporter.port(), ingest->remote_write_port, tls_config),
                          {{"url: http://", "url: https://"}});
  auto prom = testing::StartPrometheus(config);
  ASSERT_THAT(prom, IsOk());

  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  // A request's samples are counted before its answer is: wait for both.
  while ((Metric(ingest->metrics_port, "fleetcap_telemetry_samples_received_total") == 0 ||
          Metric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total", "code=\"204\"") == 0) &&
         absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(200));
  }
  EXPECT_GT(Metric(ingest->metrics_port, "fleetcap_telemetry_samples_received_total"), 0)
      << "nothing arrived over TLS; fleetcap-ingest's stderr: " << ingest->process->Stderr();
  EXPECT_GT(Metric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total", "code=\"204\""), 0);
  EXPECT_EQ(Metric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total", "code=\"4"), 0);
}

}  // namespace
}  // namespace fleetcap
