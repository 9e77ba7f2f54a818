#pragma once
// A fresh directory per test for the small CSV files the reader tests need;
// the real trace is read-only and never written to.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fleetcap::openb {

class TestDir {
 public:
  TestDir() {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(testing::TempDir()) /
            (std::string("openb_") + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TestDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TestDir(const TestDir&) = delete;
  TestDir& operator=(const TestDir&) = delete;

  std::string path() const { return path_.string(); }

  // Writes `text` byte for byte to `name` and returns the file's path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream out(file, std::ios::binary);
    out << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace fleetcap::openb
