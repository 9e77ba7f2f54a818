#include "common/file_read.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "tests/support/status_matchers.h"
#include "tests/support/test_dir.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::fleetcap::testing::TestDir;
using ::testing::HasSubstr;

TEST(ReadWholeFile, ReadsEveryByteUpToTheBound) {
  TestDir dir("file-read");
  const std::string text("line one\n\0binary\xff", 18);
  const std::string path = dir.Write("exact", text);
  auto read = ReadWholeFile("--policy", path, text.size());
  ASSERT_THAT(read, IsOk());
  EXPECT_EQ(*read, text);
  auto empty = ReadWholeFile("--policy", dir.Write("empty", ""), 0);
  ASSERT_THAT(empty, IsOk());
  EXPECT_EQ(*empty, "");
}

TEST(ReadWholeFile, ReadsAFileLargerThanOneBuffer) {
  TestDir dir("file-read");
  const std::string text(200000, 'x');
  auto read = ReadWholeFile("--demand", dir.Write("big", text), 1 << 20);
  ASSERT_THAT(read, IsOk());
  EXPECT_EQ(read->size(), text.size());
}

TEST(ReadWholeFile, RefusesAFileOverTheBoundNamingWhatAndWhere) {
  TestDir dir("file-read");
  const std::string path = dir.Write("big", std::string(11, 'x'));
  EXPECT_THAT(
      ReadWholeFile("--demand", path, 10),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--demand: \"" + path + "\" is larger than 10 bytes")));
}

// A file that cannot be stat'ed for its size (here a pipe) is still cut off
// past the bound, not read to its end.
TEST(ReadWholeFile, RefusesAStreamOverTheBoundOnceItPassesIt) {
  TestDir dir("file-read");
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    out << std::string(100, 'y');
  });
  auto read = ReadWholeFile("--token-file", fifo, 50);
  writer.join();
  EXPECT_THAT(read, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is larger than 50 bytes")));
}

TEST(ReadWholeFile, AMissingFileIsNotFoundAndADirectoryUnavailable) {
  TestDir dir("file-read");
  EXPECT_THAT(ReadWholeFile("--tls-cert", "/nonexistent.pem", 100),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("--tls-cert: cannot read \"/nonexistent.pem\": No such file or directory")));
  EXPECT_THAT(ReadWholeFile("trace", dir.path() + "/absent/nodes.csv", 100), StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(ReadWholeFile("scenario", dir.path(), 100),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("scenario: cannot read \"" + dir.path() + "\": Is a directory")));
}

}  // namespace
}  // namespace fleetcap
