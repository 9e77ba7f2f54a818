#include "ingest/commands/prometheus_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/flag_error_cases.h"

namespace fleetcap::ingest {
namespace {

using testing::NoEnvironment;
using ::testing::StartsWith;

// A command line that parses, plus `more` (a later flag wins over an earlier one).
std::vector<std::string> Pulling(std::vector<std::string> more) {
  std::vector<std::string> args = {"--db", "postgresql://x", "--cluster", "c1", "--prometheus-url", "http://p"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(ParsePrometheusFlags, EveryFlagErrorNamesItsFlag) {
  const std::string not_duration = "\" is not a duration like 90s or 5m";
  const std::string not_rfc3339 = "\" is not an RFC 3339 timestamp such as 2026-01-01T00:00:00Z";
  auto parse = [](const std::vector<std::string>& args) { return ParsePrometheusFlags(args, NoEnvironment()); };
  testing::ExpectFlagErrors(
      parse,
      {
          {Pulling({"--wal"}), "unknown flag --wal (see fleetcap-ingest --help)"},
          {Pulling({"--settle"}), "--settle: missing value"},
          {Pulling({"--max-points", "lots"}), "--max-points: \"lots\" is not an integer"},
          {Pulling({"--once=sometimes"}), "--once: \"sometimes\" is not true or false"},
          {Pulling({"stray"}), "unexpected argument \"stray\""},
          {Pulling({"--log-level", "loud"}), "--log-level: \"loud\" is not one of"},
          {Pulling({"--cluster="}), "--cluster: empty"},
          {Pulling({"--prometheus-url="}), "give --remote-write-listen, --prometheus-url or both"},
          {Pulling({"--max-body-mb", "0"}), "--max-body-mb: must be at least 1"},
          {Pulling({"--decode-budget-mb", "0"}), "--decode-budget-mb: must be within 1..65536"},
          {Pulling({"--decode-budget-mb", "65537"}), "--decode-budget-mb: must be within 1..65536"},
          {Pulling({"--max-queued-samples", "0"}), "--max-queued-samples: must be at least 1"},
          {Pulling({"--max-unwritten-mb", "0"}), "--max-unwritten-mb: must be at least 1"},
          {Pulling({"--wal-segment-mb", "0"}), "--wal-segment-mb: must be within 1..1024"},
          {Pulling({"--wal-segment-mb", "1025"}), "--wal-segment-mb: must be within 1..1024"},
          {Pulling({"--remote-write-listen", "127.0.0.1:0"}), "--wal-dir: needed with --remote-write-listen"},
          {Pulling({"--db="}), "--db: empty; give a libpq URI or set FLEETCAP_DB"},
          {Pulling({"--prometheus-url=", "--remote-write-listen", ":0", "--wal-dir", "/w", "--once"}),
           "--once: needs --prometheus-url"},
          {Pulling({"--max-points", "0"}), "--max-points: must be within 1..11000"},
          {Pulling({"--max-points", "11001"}), "--max-points: must be within 1..11000"},
          {Pulling({"--settle", "soon"}), "--settle: \"soon" + not_duration},
          {Pulling({"--settle", "-1s"}), "--settle: \"-1s" + not_duration},
          {Pulling({"--query-timeout", "30"}), "--query-timeout: \"30" + not_duration},
          {Pulling({"--query-attempts", "0"}), "--query-attempts: must be at least 1"},
          {Pulling({"--pull-interval", "1 minute"}), "--pull-interval: \"1 minute" + not_duration},
          {Pulling({"--max-sample-ahead", "x"}), "--max-sample-ahead: \"x" + not_duration},
          {Pulling({"--retention-days", "0"}), "--retention-days: must be within 1..100000"},
          {Pulling({"--retention-days", "100001"}), "--retention-days: must be within 1..100000"},
          {Pulling({"--since", "yesterday"}), "--since: \"yesterday" + not_rfc3339},
          {Pulling({"--until", "2026-13-01T00:00:00Z"}), "--until: \"2026-13-01T00:00:00Z" + not_rfc3339},
          {Pulling({"--remote-write-read-timeout", "x"}), "--remote-write-read-timeout: \"x" + not_duration},
          {Pulling({"--remote-write-read-timeout", "500ms"}), "--remote-write-read-timeout: must be at least 1s"},
          {Pulling({"--max-devices", "0"}), "--max-devices: must be at least 1"},
          {Pulling({"--max-series", "0"}), "--max-series: must be at least 1"},
          {Pulling({"--remote-write-tls-cert", "c.pem"}),
           "--remote-write-tls-cert and --remote-write-tls-key: give both or neither"},
          {Pulling({"--remote-write-tls-client-ca", "ca.pem"}),
           "--remote-write-tls-client-ca: needs --remote-write-tls-cert and --remote-write-tls-key"},
      });
}

TEST(ParsePrometheusFlags, FlagsBecomeThePushAndPullOptions) {
  auto parsed = ParsePrometheusFlags(Pulling({"--remote-write-listen",
                                              "127.0.0.1:0",
                                              "--wal-dir",
                                              "/wal",
                                              "--wal-segment-mb",
                                              "2",
                                              "--settle",
                                              "90s",
                                              "--max-body-mb",
                                              "3",
                                              "--decode-budget-mb",
                                              "7",
                                              "--retention-days",
                                              "10",
                                              "--max-sample-ahead",
                                              "2h",
                                              "--query-attempts",
                                              "2",
                                              "--since",
                                              "2026-01-01T00:00:00Z",
                                              "--max-devices",
                                              "5",
                                              "--max-series",
                                              "6",
                                              "--remote-write-bearer-token-file",
                                              "/token",
                                              "--mapping",
                                              "/m.yaml"}),
                                     NoEnvironment());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const PrometheusOptions& o = *parsed;
  EXPECT_EQ(o.daemon.db_connections, 3);
  EXPECT_EQ(o.remote_write.listen, "127.0.0.1:0");
  EXPECT_EQ(o.remote_write.max_body_bytes, size_t{3} << 20);
  EXPECT_EQ(o.remote_write.decode_budget_bytes, size_t{7} << 20);
  EXPECT_EQ(o.sample_log.dir, "/wal");
  EXPECT_EQ(o.sample_log.segment_bytes, int64_t{2} << 20);
  EXPECT_EQ(o.pipeline.settle, absl::Seconds(90));
  EXPECT_EQ(o.pull.settle, absl::Seconds(90));
  EXPECT_EQ(o.pipeline.limits.max_devices, 5);
  EXPECT_EQ(o.pipeline.limits.max_series, 6);
  // One window of accepted sample times for both paths and the receiver.
  EXPECT_EQ(o.remote_write.window.ahead, absl::Hours(2));
  EXPECT_EQ(o.remote_write.window.behind, absl::Hours(24 * 10));
  EXPECT_EQ(o.pipeline.window.behind, absl::Hours(24 * 10));
  EXPECT_EQ(o.pull.window.ahead, absl::Hours(2));
  EXPECT_EQ(o.partitions.retention_days, 10);
  EXPECT_EQ(o.client.attempts, 2);
  EXPECT_EQ(o.pull.since, absl::FromUnixSeconds(1767225600));
  EXPECT_EQ(o.pull.until, absl::InfiniteFuture());
  // Files are named, not read: that is RunPrometheus's first step.
  EXPECT_EQ(o.bearer_token_file, "/token");
  EXPECT_EQ(o.remote_write.bearer_token, "");
  EXPECT_EQ(o.mapping_file, "/m.yaml");
}

TEST(ParsePrometheusFlags, WithoutRemoteWriteListenThereIsNoPushSide) {
  auto parsed = ParsePrometheusFlags(Pulling({}), NoEnvironment());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->remote_write.listen, "");
}

TEST(ParsePrometheusFlags, HelpAsksForNothingElse) {
  auto parsed = ParsePrometheusFlags({"--help"}, NoEnvironment());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->daemon.help, StartsWith("usage: fleetcap-ingest prometheus --cluster NAME"));
}

}  // namespace
}  // namespace fleetcap::ingest
