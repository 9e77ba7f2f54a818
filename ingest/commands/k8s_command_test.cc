#include "ingest/commands/k8s_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/flag_error_cases.h"

namespace fleetcap::ingest {
namespace {

using testing::NoEnvironment;
using ::testing::StartsWith;

absl::StatusOr<K8sOptions> Parse(std::vector<std::string> args) { return ParseK8sFlags(args, NoEnvironment()); }

TEST(ParseK8sFlags, EveryFlagErrorNamesItsFlag) {
  const std::vector<std::string> ok = {"--db", "postgresql://x", "--cluster", "c1"};
  auto with = [&ok](std::vector<std::string> more) {
    more.insert(more.begin(), ok.begin(), ok.end());
    return more;
  };
  testing::ExpectFlagErrors(
      Parse, {
                 {with({"--kube-apis", "http://x"}), "unknown flag --kube-apis (see fleetcap-ingest --help)"},
                 {with({"--kube-api"}), "--kube-api: missing value"},
                 {with({"--page-size", "many"}), "--page-size: \"many\" is not an integer"},
                 {with({"--watch-timeout", "5m"}), "--watch-timeout: \"5m\" is not an integer"},
                 {with({"--insecure=maybe"}), "--insecure: \"maybe\" is not true or false"},
                 {with({"stray"}), "unexpected argument \"stray\""},
                 {with({"--log-level", "loud"}), "--log-level: \"loud\" is not one of trace, debug, info, warn, error"},
                 {{"--db", "postgresql://x"}, "--cluster: empty; name the cluster"},
                 {with({"--page-size", "0"}), "--page-size: must be at least 1"},
                 {{"--cluster", "c1"}, "--db: empty; give a libpq URI or set FLEETCAP_DB"},
             });
}

TEST(ParseK8sFlags, FlagsBecomeTheIngestOptions) {
  auto parsed = Parse({"--db", "postgresql://x", "--cluster", "c1", "--kubeconfig", "/k", "--page-size", "7",
                       "--watch-timeout", "0", "--flush-interval-ms", "1", "--token-reread", "30", "--exit-after-sync",
                       "--team-label", "a,b", "--namespace-team-annotation", ""});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->daemon.db, "postgresql://x");
  EXPECT_EQ(parsed->daemon.db_connections, 2);
  EXPECT_EQ(parsed->connection.kubeconfig, "/k");
  const k8s::K8sIngestOptions& ingest = parsed->ingest;
  EXPECT_EQ(ingest.reconciler.cluster, "c1");
  EXPECT_EQ(ingest.list_watch.page_size, 7);
  // Intervals too short to be meant are raised to the least that works.
  EXPECT_EQ(ingest.list_watch.min_watch_timeout, absl::Seconds(1));
  EXPECT_EQ(ingest.flush_interval, absl::Milliseconds(10));
  EXPECT_EQ(ingest.token_reread, absl::Seconds(30));
  EXPECT_TRUE(ingest.exit_after_sync);
  EXPECT_EQ(ingest.reconciler.teams.pod_label_keys, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ingest.reconciler.teams.namespace_label_keys, (std::vector<std::string>{"fleetcap.io/team"}));
  EXPECT_TRUE(ingest.reconciler.teams.namespace_annotation_keys.empty());
}

TEST(ParseK8sFlags, DbComesFromTheEnvironmentGiven) {
  auto parsed = ParseK8sFlags({"--cluster", "c1"}, [](const std::string& name) {
    return name == "FLEETCAP_DB" ? std::string("postgresql://env") : std::string();
  });
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->daemon.db, "postgresql://env");
}

TEST(ParseK8sFlags, HelpAsksForNothingElse) {
  auto parsed = Parse({"--help"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->daemon.help, StartsWith("usage: fleetcap-ingest k8s --cluster NAME"));
  EXPECT_THAT(parsed->daemon.help, ::testing::HasSubstr("--exit-after-sync"));
}

}  // namespace
}  // namespace fleetcap::ingest
