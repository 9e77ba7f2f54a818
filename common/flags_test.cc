#include "common/flags.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace fleetcap {
namespace {

TEST(FlagSet, ParsesBothSpellingsAndPositionals) {
  std::string cluster = "all";
  int64_t nodes = 0;
  bool migrate = false;
  FlagSet flags("tool", "[flags]");
  flags.String("cluster", &cluster, "cluster name");
  flags.Int("nodes", &nodes, "node count");
  flags.Bool("migrate", &migrate, "apply migrations");
  auto parsed = flags.Parse({"replay", "--cluster", "openb", "--nodes=12", "--migrate", "x"});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(cluster, "openb");
  EXPECT_EQ(nodes, 12);
  EXPECT_TRUE(migrate);
  EXPECT_EQ(parsed->positional, (std::vector<std::string>{"replay", "x"}));
}

TEST(FlagSet, NegatedBool) {
  bool migrate = true;
  FlagSet flags("tool", "");
  flags.Bool("migrate", &migrate, "apply migrations");
  ASSERT_TRUE(flags.Parse({"--no-migrate"}).ok());
  EXPECT_FALSE(migrate);
}

TEST(FlagSet, ErrorsNameTheFlag) {
  std::string db;
  int64_t n = 0;
  FlagSet flags("tool", "");
  flags.String("db", &db, "database");
  flags.Int("nodes", &n, "nodes");
  auto unknown = flags.Parse({"--dbx", "y"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("--dbx"), std::string_view::npos);
  auto missing = flags.Parse({"--db"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("--db: missing value"), std::string_view::npos);
  auto not_int = flags.Parse({"--nodes", "many"});
  ASSERT_FALSE(not_int.ok());
  EXPECT_NE(not_int.status().message().find("--nodes"), std::string_view::npos);
}

TEST(FlagSet, EnvironmentOverridesDefaultAndFlagOverridesEnvironment) {
  setenv("FLEETCAP_FLAGS_TEST_DB", "postgresql://env", 1);
  std::string db = "default";
  FlagSet flags("tool", "");
  flags.String("db", &db, "database", "FLEETCAP_FLAGS_TEST_DB");
  EXPECT_EQ(db, "postgresql://env");
  ASSERT_TRUE(flags.Parse({"--db=postgresql://flag"}).ok());
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
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->help);
  EXPECT_TRUE(parsed->version);
  EXPECT_NE(flags.Help().find("usage: tool"), std::string::npos);
}

}  // namespace
}  // namespace fleetcap
