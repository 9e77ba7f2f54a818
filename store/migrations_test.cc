#include <gtest/gtest.h>

#include <regex>

#include "store/migrations.h"

namespace fleetcap::store {
namespace {

TEST(BuiltinMigrations, AreNumberedFromOneWithoutGaps) {
  const auto& migrations = BuiltinMigrations();
  ASSERT_FALSE(migrations.empty());
  for (size_t i = 0; i < migrations.size(); ++i) {
    EXPECT_EQ(migrations[i].version, static_cast<int>(i) + 1) << migrations[i].name;
    EXPECT_TRUE(std::regex_match(migrations[i].name, std::regex("[0-9]{4}_[a-z0-9_]+")))
        << migrations[i].name;
    EXPECT_FALSE(migrations[i].sql.empty()) << migrations[i].name;
  }
}

TEST(MigrationChecksum, IsSha256OfTheSql) {
  Migration m{1, "0001_x", "abc"};
  EXPECT_EQ(MigrationChecksum(m),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Migration changed{1, "0001_x", "abd"};
  EXPECT_NE(MigrationChecksum(changed), MigrationChecksum(m));
}

}  // namespace
}  // namespace fleetcap::store
