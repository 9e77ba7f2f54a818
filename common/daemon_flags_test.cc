#include "common/daemon_flags.h"

#include <gtest/gtest.h>

#include "common/flag_error_cases.h"

namespace fleetcap {
namespace {

using testing::NoEnvironment;

absl::Status Parse(const std::vector<std::string>& args, DaemonOptions* options) {
  FlagSet flags("tool", "[flags]", NoEnvironment());
  RegisterDaemonFlags(flags, options);
  return ParseDaemonCommand(flags, args, options);
}

TEST(DaemonFlags, ParsesTheCommonFlags) {
  DaemonOptions options;
  ASSERT_TRUE(
      Parse({"--db", "postgresql://x", "--migrate", "--metrics-listen=:0", "--log-level", "warn"}, &options).ok());
  EXPECT_EQ(options.db, "postgresql://x");
  EXPECT_TRUE(options.migrate);
  EXPECT_EQ(options.metrics_listen, ":0");
  EXPECT_EQ(options.log_level, "warn");
  EXPECT_EQ(options.help, "");
}

TEST(DaemonFlags, DbFallsBackToFleetcapDbFromTheEnvironmentGiven) {
  DaemonOptions options;
  FlagSet flags("tool", "", [](const std::string& name) {
    return name == "FLEETCAP_DB" ? std::string("postgresql://env") : std::string();
  });
  RegisterDaemonFlags(flags, &options);
  EXPECT_EQ(options.db, "postgresql://env");
  EXPECT_TRUE(RequireDb(options).ok());
}

TEST(DaemonFlags, HelpIsKeptNotPrinted) {
  DaemonOptions options;
  ASSERT_TRUE(Parse({"--help", "stray"}, &options).ok());
  EXPECT_NE(options.help.find("usage: tool [flags]"), std::string::npos) << options.help;
  EXPECT_NE(options.help.find("--metrics-listen"), std::string::npos) << options.help;
}

TEST(DaemonFlags, ErrorsNameTheFlagOrArgument) {
  auto parse = [](const std::vector<std::string>& args) {
    DaemonOptions options;
    return Parse(args, &options);
  };
  testing::ExpectFlagErrors(parse,
                            {
                                {{"--dbx"}, "unknown flag --dbx (see tool --help)"},
                                {{"--db"}, "--db: missing value"},
                                {{"--migrate=perhaps"}, "--migrate: \"perhaps\" is not true or false"},
                                {{"stray"}, "unexpected argument \"stray\""},
                                {{"--log-level", "loud"},
                                 "--log-level: \"loud\" is not one of trace, debug, info, warn, error, critical, off"},
                            });
  EXPECT_EQ(RequireDb(DaemonOptions{}).message(), "--db: empty; give a libpq URI or set FLEETCAP_DB");
}

}  // namespace
}  // namespace fleetcap
