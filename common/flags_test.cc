#include "common/flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "tests/support/status_matchers.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(FlagSet, ParsesBothSpellingsAndPositionals) {
  std::string cluster = "all";
  int64_t nodes = 0;
  bool migrate = false;
  FlagSet flags("tool", "[flags]");
  flags.String("cluster", &cluster, "cluster name");
  flags.Int("nodes", &nodes, "node count");
  flags.Bool("migrate", &migrate, "apply migrations");
  auto parsed = flags.Parse({"replay", "--cluster", "openb", "--nodes=12", "--migrate", "x"});
  ASSERT_THAT(parsed, IsOk());
  EXPECT_EQ(cluster, "openb");
  EXPECT_EQ(nodes, 12);
  EXPECT_TRUE(migrate);
  EXPECT_EQ(parsed->positional, (std::vector<std::string>{"replay", "x"}));
}

TEST(FlagSet, NegatedBool) {
  bool migrate = true;
  FlagSet flags("tool", "");
  flags.Bool("migrate", &migrate, "apply migrations");
  ASSERT_THAT(flags.Parse({"--no-migrate"}), IsOk());
  EXPECT_FALSE(migrate);
}

TEST(FlagSet, ErrorsNameTheFlag) {
  std::string db;
  int64_t n = 0;
  FlagSet flags("tool", "");
  flags.String("db", &db, "database");
  flags.Int("nodes", &n, "nodes");
  auto unknown = flags.Parse({"--dbx", "y"});
  EXPECT_THAT(unknown, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--dbx")));
  auto missing = flags.Parse({"--db"});
  EXPECT_THAT(missing, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--db: missing value")));
  auto not_int = flags.Parse({"--nodes", "many"});
  EXPECT_THAT(not_int, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--nodes")));
}

TEST(FlagSet, EnvironmentOverridesDefaultAndFlagOverridesEnvironment) {
  setenv("FLEETCAP_FLAGS_TEST_DB", "postgresql://env", 1);
  std::string db = "default";
  FlagSet flags("tool", "");
  flags.String("db", &db, "database", "FLEETCAP_FLAGS_TEST_DB");
  EXPECT_EQ(db, "postgresql://env");
  ASSERT_THAT(flags.Parse({"--db=postgresql://flag"}), IsOk());
  EXPECT_EQ(db, "postgresql://flag");
  unsetenv("FLEETCAP_FLAGS_TEST_DB");
}

TEST(FlagSet, EnvironmentIsTheOneGiven) {
  std::string db = "default";
  FlagSet flags("tool", "", [](const std::string& name) {
    return name == "FLEETCAP_DB" ? std::string("postgresql://given") : std::string();
  });
  flags.String("db", &db, "database", "FLEETCAP_DB");
  EXPECT_EQ(db, "postgresql://given");
}

// A secret's value is never printed, wherever it came from: --help shows
// where it was set, never what it is.
TEST(FlagSet, HelpNeverPrintsASecretsValue) {
  std::string token, password, token_file = "/run/token", server;
  FlagSet flags("tool", "", [](const std::string& name) {
    if (name == "FLEETCAP_TOKEN") return std::string("s3cret-from-env");
    if (name == "FLEETCAP_SERVER") return std::string("api:8443");
    return std::string();
  });
  flags.String("token", &token, "bearer token", "FLEETCAP_TOKEN");
  flags.String("db-password", &password, "a password");
  flags.String("token-file", &token_file, "a file holding the token");
  flags.String("server", &server, "where", "FLEETCAP_SERVER");
  EXPECT_EQ(token, "s3cret-from-env");
  std::string help = flags.Help();
  EXPECT_THAT(help, Not(HasSubstr("s3cret"))) << help;
  EXPECT_THAT(help, HasSubstr("--token  bearer token [set from FLEETCAP_TOKEN]\n")) << help;
  EXPECT_THAT(help, HasSubstr("--db-password  a password\n")) << help;
  // What is not a secret still shows its default.
  EXPECT_THAT(help, HasSubstr("(default: /run/token)")) << help;
  EXPECT_THAT(help, HasSubstr("(default: api:8443) [env FLEETCAP_SERVER]")) << help;

  ASSERT_THAT(flags.Parse({"--token", "s3cret-flag", "--db-password=s3cret-pw", "--help"}), IsOk());
  help = flags.Help();
  EXPECT_THAT(help, Not(HasSubstr("s3cret"))) << help;
  EXPECT_THAT(help, HasSubstr("--token  bearer token [set] [env FLEETCAP_TOKEN]\n")) << help;
  EXPECT_THAT(help, HasSubstr("--db-password  a password [set]\n")) << help;
}

TEST(FlagSet, HelpAndVersion) {
  FlagSet flags("tool", "[flags]");
  auto parsed = flags.Parse({"--help", "--version"});
  ASSERT_THAT(parsed, IsOk());
  EXPECT_TRUE(parsed->help);
  EXPECT_TRUE(parsed->version);
  EXPECT_THAT(flags.Help(), HasSubstr("usage: tool"));
}

TEST(FlagSet, DurationTakesSecondsAsTheIntFlagsDidAndGoDurations) {
  for (const auto& [text, expected] :
       std::vector<std::pair<std::string, absl::Duration>>{{"30", absl::Seconds(30)},
                                                           {"0", absl::ZeroDuration()},
                                                           {"-1", absl::Seconds(-1)},
                                                           {"90s", absl::Seconds(90)},
                                                           {"5m", absl::Minutes(5)},
                                                           {"1h30m", absl::Minutes(90)},
                                                           {"250ms", absl::Milliseconds(250)},
                                                           {"1.5s", absl::Milliseconds(1500)}}) {
    absl::Duration wait = absl::Seconds(5);
    FlagSet flags("tool", "");
    flags.Duration("db-wait", &wait, "wait");
    ASSERT_THAT(flags.Parse({"--db-wait", text}), IsOk()) << text;
    EXPECT_EQ(wait, expected) << text;
    ASSERT_THAT(flags.Parse({"--db-wait=" + text}), IsOk()) << text;
    EXPECT_EQ(wait, expected) << text;
  }
}

TEST(FlagSet, DurationErrorsNameTheFlagAndTheRange) {
  absl::Duration wait = absl::Seconds(5);
  FlagSet flags("tool", "");
  flags.Duration("db-wait", &wait, "wait", absl::ZeroDuration(), absl::Hours(1));
  for (const char* text : {"soon", "5 m", "5x", "", "inf", "1.5"}) {
    EXPECT_THAT(flags.Parse({"--db-wait", text}),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr(absl::StrCat("--db-wait: \"", text, "\" is not a duration"))))
        << text;
  }
  EXPECT_THAT(flags.Parse({"--db-wait", "-1"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--db-wait: -1 is out of range (0..1h)")));
  EXPECT_THAT(flags.Parse({"--db-wait", "61m"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--db-wait: 61m is out of range (0..1h)")));
  EXPECT_THAT(flags.Parse({"--db-wait", "3601"}), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("3601")));
  EXPECT_THAT(flags.Parse({"--db-wait"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--db-wait: missing value")));
  EXPECT_EQ(wait, absl::Seconds(5)) << "a refused value is not kept";
  ASSERT_THAT(flags.Parse({"--db-wait", "1h"}), IsOk());
  EXPECT_EQ(wait, absl::Hours(1));
}

TEST(FlagSet, HelpShowsADurationsDefaultWithItsUnit) {
  absl::Duration wait = absl::Seconds(5);
  FlagSet flags("tool", "");
  flags.Duration("db-wait", &wait, "how long to wait");
  EXPECT_THAT(flags.Help(), HasSubstr("--db-wait  how long to wait (default: 5s)"));
}

}  // namespace
}  // namespace fleetcap
