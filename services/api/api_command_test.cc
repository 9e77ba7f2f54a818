#include "services/api/api_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/flag_error_cases.h"

namespace fleetcap::api {
namespace {

using ::testing::HasSubstr;
using testing::NoEnvironment;
using ::testing::StartsWith;

absl::StatusOr<ApiOptions> Parse(std::vector<std::string> args) { return ParseApiFlags(args, NoEnvironment()); }

TEST(ParseApiFlags, EveryFlagErrorNamesItsFlag) {
  const std::string ranges =
      "--db-connections, --http-threads and --max-watches-per-token take 1 to 1000, --http-read-timeout 1 to 3600, "
      "--db-wait 0 to 3600, --db-statement-timeout 0 to 86400";
  testing::ExpectFlagErrors(Parse, {
                                       {{"--grpc-port", "1"}, "unknown flag --grpc-port (see fleetcap-api --help)"},
                                       {{"--grpc-listen"}, "--grpc-listen: missing value"},
                                       {{"--db-connections", "eight"}, "--db-connections: \"eight\" is not an integer"},
                                       {{"--migrate=later"}, "--migrate: \"later\" is not true or false"},
                                       {{"--db-connections", "0"}, ranges},
                                       {{"--db-connections", "1001"}, ranges},
                                       {{"--http-threads", "0"}, ranges},
                                       {{"--http-threads", "1001"}, ranges},
                                       {{"--db-wait", "-1"}, ranges},
                                       {{"--db-wait", "3601"}, ranges},
                                       {{"--db-statement-timeout", "-1"}, ranges},
                                       {{"--db-statement-timeout", "86401"}, ranges},
                                       {{"--http-read-timeout", "0"}, ranges},
                                       {{"--http-read-timeout", "3601"}, ranges},
                                       {{"--max-watches-per-token", "0"}, ranges},
                                       {{"--max-watches-per-token", "1001"}, ranges},
                                       {{"serve"}, "unexpected argument \"serve\""},
                                       {{"init", "now"}, "unexpected argument \"now\""},
                                       {{"--log-level", "loud"}, "--log-level: \"loud\" is not one of"},
                                   });
}

// The timeouts take seconds as they always did, or durations with units.
TEST(ParseApiFlags, TimeoutsTakeDurationsWithUnits) {
  auto parsed = Parse({"--db-wait", "1500ms", "--db-statement-timeout", "2m", "--http-read-timeout", "1h"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->daemon.db_limits.acquire_timeout, absl::Milliseconds(1500));
  EXPECT_EQ(parsed->daemon.db_limits.statement_timeout, absl::Minutes(2));
  EXPECT_EQ(parsed->server.http_limits.read_timeout, absl::Hours(1));
  const std::string ranges =
      "--db-connections, --http-threads and --max-watches-per-token take 1 to 1000, --http-read-timeout 1 to 3600, "
      "--db-wait 0 to 3600, --db-statement-timeout 0 to 86400";
  testing::ExpectFlagErrors(Parse,
                            {
                                {{"--db-wait", "soon"}, "--db-wait: \"soon\" is not a duration"},
                                {{"--http-read-timeout", "10 s"}, "--http-read-timeout: \"10 s\" is not a duration"},
                                {{"--db-wait", "61m"}, ranges},
                                {{"--db-statement-timeout", "500us"}, ranges},
                                {{"--http-read-timeout", "999ms"}, ranges},
                                {{"--http-read-timeout", "1h1s"}, ranges},
                            });
}

TEST(ParseApiFlags, TheCommonDaemonFlagsAndTheLimits) {
  auto parsed = Parse({"--db", "postgresql://x", "--migrate", "--metrics-listen", "127.0.0.1:0", "--db-connections",
                       "3", "--db-wait", "0", "--db-statement-timeout", "7", "--http-threads", "2",
                       "--http-read-timeout", "9", "--grpc-listen", "127.0.0.1:1"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->daemon.db, "postgresql://x");
  EXPECT_TRUE(parsed->daemon.migrate);
  EXPECT_EQ(parsed->daemon.metrics_listen, "127.0.0.1:0");
  EXPECT_EQ(parsed->daemon.db_connections, 3);
  EXPECT_EQ(parsed->daemon.db_limits.acquire_timeout, absl::ZeroDuration());
  EXPECT_EQ(parsed->daemon.db_limits.statement_timeout, absl::Seconds(7));
  EXPECT_EQ(parsed->server.http_limits.threads, 2);
  EXPECT_EQ(parsed->server.http_limits.read_timeout, absl::Seconds(9));
  EXPECT_EQ(parsed->server.grpc_listen, "127.0.0.1:1");
  EXPECT_FALSE(parsed->init);
}

TEST(ParseApiFlags, DefaultLimits) {
  auto parsed = Parse({});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->daemon.db_connections, 8);
  EXPECT_EQ(parsed->daemon.db_limits.acquire_timeout, absl::Seconds(5));
  EXPECT_EQ(parsed->daemon.db_limits.statement_timeout, absl::Seconds(30));
  EXPECT_FALSE(parsed->server.grpc_reflection);
  EXPECT_EQ(parsed->server.watch_limits.max_watchers_per_token, 8);
  EXPECT_EQ(Parse({"--max-watches-per-token", "3"})->server.watch_limits.max_watchers_per_token, 3);
  EXPECT_TRUE(Parse({"--grpc-reflection"})->server.grpc_reflection);
}

TEST(ParseApiFlags, WebRootFromTheFlagOrTheEnvironment) {
  EXPECT_EQ(Parse({})->server.web_root, "");
  EXPECT_EQ(Parse({"--web-root", "web/dist"})->server.web_root, "web/dist");
  auto env = [](const std::string& name) { return name == "FLEETCAP_WEB_ROOT" ? std::string("/srv/dash") : ""; };
  auto parsed = ParseApiFlags({}, env);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->server.web_root, "/srv/dash");
}

TEST(ParseApiFlags, InitTakesItsTokenLifetime) {
  auto parsed = Parse({"init", "--ttl-days", "2"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(parsed->init);
  EXPECT_EQ(parsed->init_ttl, absl::Hours(48));
}

TEST(ParseApiFlags, HelpAndVersionAskForNothingElse) {
  auto help = Parse({"--help", "--db-connections", "0"});
  ASSERT_TRUE(help.ok()) << help.status();
  EXPECT_THAT(help->daemon.help, StartsWith("usage: fleetcap-api [init] [flags]"));
  EXPECT_THAT(help->daemon.help, HasSubstr("--db  PostgreSQL libpq URI"));
  EXPECT_THAT(help->daemon.help, HasSubstr("[env FLEETCAP_DB]"));
  auto version = Parse({"--version"});
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_TRUE(version->version);
}

}  // namespace
}  // namespace fleetcap::api
