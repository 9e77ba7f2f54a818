#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "store/migrations.h"

namespace fleetcap::store {
namespace {

// Numbers are handed out per change and land in any order, so a branch may
// hold 0001 and 0004 before 0002 arrives; the migrator applies what is missing.
TEST(BuiltinMigrations, AreNumberedFromOneAndIncreasing) {
  const auto& migrations = BuiltinMigrations();
  ASSERT_FALSE(migrations.empty());
  EXPECT_EQ(migrations[0].version, 1);
  for (size_t i = 0; i < migrations.size(); ++i) {
    if (i > 0) {
      EXPECT_GT(migrations[i].version, migrations[i - 1].version) << migrations[i].name;
    }
    EXPECT_TRUE(std::regex_match(migrations[i].name, std::regex("[0-9]{4}_[a-z0-9_]+"))) << migrations[i].name;
    EXPECT_FALSE(migrations[i].sql.empty()) << migrations[i].name;
  }
}

TEST(MigrationChecksum, IsSha256OfTheSql) {
  Migration m{1, "0001_x", "abc"};
  EXPECT_EQ(MigrationChecksum(m), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Migration changed{1, "0001_x", "abd"};
  EXPECT_NE(MigrationChecksum(changed), MigrationChecksum(m));
}

// A repeatable is its function's one definition: the file is named after it
// and replaces it (and its triggers) in place, so applying it again is safe.
TEST(BuiltinRepeatables, AreNamedAfterTheFunctionTheyReplace) {
  const auto& repeatables = BuiltinRepeatables();
  ASSERT_FALSE(repeatables.empty());
  for (size_t i = 0; i < repeatables.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(repeatables[i - 1].name, repeatables[i].name);
    }
    const std::string& sql = repeatables[i].sql;
    EXPECT_THAT(sql, ::testing::HasSubstr("CREATE OR REPLACE FUNCTION " + repeatables[i].name + "("));
    EXPECT_FALSE(std::regex_search(sql, std::regex("CREATE (FUNCTION|TRIGGER) "))) << repeatables[i].name;
  }
}

TEST(RepeatableChecksum, IsSha256OfTheSql) {
  Repeatable r{"fleetcap_x", "abc"};
  EXPECT_EQ(RepeatableChecksum(r), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace fleetcap::store
