#include "tests/support/test_dir.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::testing {
namespace {

using ::testing::HasSubstr;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TestDir, IsAFreshEmptyDirectoryNamedForItsPurpose) {
  TestDir dir("wal");
  ASSERT_TRUE(std::filesystem::is_directory(dir.path()));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  EXPECT_THAT(std::filesystem::path(dir.path()).filename().string(), HasSubstr("fleetcap-wal-"));
}

TEST(TestDir, TwoInOneTestAreDistinct) {
  TestDir a, b;
  EXPECT_NE(a.path(), b.path());
}

TEST(TestDir, WriteStoresTheBytesAndReturnsThePath) {
  TestDir dir;
  const std::string text("a,b\n1,\0\n", 8);
  const std::string file = dir.Write("rows.csv", text);
  EXPECT_EQ(file, dir.path() + "/rows.csv");
  EXPECT_EQ(ReadAll(file), text);
}

TEST(TestDir, IsRemovedWithEverythingInIt) {
  std::string path;
  {
    TestDir dir;
    path = dir.path();
    dir.Write("f", "x");
    std::filesystem::create_directories(path + "/sub/deeper");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace fleetcap::testing
