#include "common/flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/support/status_matchers.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

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

TEST(FlagSet, HelpAndVersion) {
  FlagSet flags("tool", "[flags]");
  auto parsed = flags.Parse({"--help", "--version"});
  ASSERT_THAT(parsed, IsOk());
  EXPECT_TRUE(parsed->help);
  EXPECT_TRUE(parsed->version);
  EXPECT_THAT(flags.Help(), HasSubstr("usage: tool"));
}

}  // namespace
}  // namespace fleetcap
