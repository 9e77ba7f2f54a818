#pragma once
// A fresh temporary directory, removed with the object: the one way tests get
// a place for files (a --wal-dir, a kubeconfig, CSV fixtures, certificates).
// Each is new and unique (mkdtemp under gtest's TempDir(), which honours
// $TEST_TMPDIR), so a test may make several and tests may run in parallel.
// Header-only: unit tests beside the code use it as well as the tests in tests/.

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fleetcap::testing {

class TestDir {
 public:
  // `purpose` names the directory (fleetcap-<purpose>-XXXXXX), for whoever
  // finds one left behind by a crashed test.
  explicit TestDir(const std::string& purpose = "test") {
    std::string pattern = ::testing::TempDir();
    if (!pattern.empty() && pattern.back() != '/') pattern += '/';
    pattern += "fleetcap-" + purpose + "-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp " << pattern << ": " << std::strerror(errno);
      return;
    }
    path_ = buffer.data();
  }
  ~TestDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TestDir(const TestDir&) = delete;
  TestDir& operator=(const TestDir&) = delete;

  const std::string& path() const { return path_; }

  // Writes `text` byte for byte to `name` in the directory and returns the file's path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string file = path_ + "/" + name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::string path_;
};

}  // namespace fleetcap::testing
