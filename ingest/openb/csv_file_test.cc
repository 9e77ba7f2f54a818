#include "ingest/openb/csv_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"
#include "tests/support/test_dir.h"

namespace fleetcap::openb {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::fleetcap::testing::TestDir;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr absl::string_view kAB[] = {"a", "b"};

TEST(CsvFile, FindsColumnsByNameAndKeepsLineNumbers) {
  TestDir dir;
  // CRLF endings, a byte order mark and a blank line all occur in exported CSV.
  const std::string path = dir.Write("t.csv",
                                     "\xEF\xBB\xBF"
                                     "b,x,a\r\n1,,2\r\n\r\n3,y,4\r\n");
  absl::StatusOr<CsvFile> csv = CsvFile::Read(path);
  ASSERT_THAT(csv, IsOk());
  absl::StatusOr<std::vector<size_t>> col = csv->Columns(kAB);
  ASSERT_THAT(col, IsOk());
  EXPECT_THAT(*col, ElementsAre(2, 0));
  ASSERT_EQ(csv->rows().size(), 2u);
  EXPECT_EQ(csv->rows()[0].line, 2);
  EXPECT_EQ(csv->rows()[1].line, 4);
  EXPECT_EQ(*csv->Int(csv->rows()[1], (*col)[0], 0, 10), 4);
  EXPECT_EQ(*csv->OptionalInt(csv->rows()[0], 1, 0, 10), std::nullopt);
}

TEST(CsvFile, MissingFileIsNotFoundNamingThePath) {
  TestDir dir;
  const std::string path = dir.path() + "/absent.csv";
  absl::StatusOr<CsvFile> csv = CsvFile::Read(path);
  EXPECT_THAT(csv, StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(csv.status().ToString(), HasSubstr(path));
}

TEST(CsvFile, MissingColumnsAreAllListed) {
  TestDir dir;
  absl::StatusOr<CsvFile> csv = CsvFile::Read(dir.Write("t.csv", "c\n1\n"));
  ASSERT_THAT(csv, IsOk());
  absl::Status status = csv->Columns(kAB).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.ToString(), HasSubstr("t.csv:1: missing columns a, b"));
}

TEST(CsvFile, RejectsMalformedFilesWithTheLine) {
  TestDir dir;
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {Case{"", "empty file"}, Case{"a,b\n1\n", "t.csv:2: expected 2 fields, found 1"},
                        Case{"a,b\n1,\"2\"\n", "t.csv:2: quoted fields are not supported"},
                        Case{"a,a\n", "t.csv:1: column \"a\" appears twice"}}) {
    absl::Status status = CsvFile::Read(dir.Write("t.csv", c.text)).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_THAT(status.ToString(), HasSubstr(c.message));
  }
}

TEST(CsvFile, IntegersAreStrict) {
  TestDir dir;
  absl::StatusOr<CsvFile> csv = CsvFile::Read(dir.Write("t.csv", "a\nx\n+5\n 5\n\n99999999999999999999\n-1\n"));
  ASSERT_THAT(csv, IsOk());
  const std::vector<CsvFile::Row>& rows = csv->rows();
  ASSERT_EQ(rows.size(), 5u);  // the blank line is skipped, not an empty field
  EXPECT_THAT(csv->Int(rows[0], 0, 0, 9).status().ToString(), HasSubstr("t.csv:2: a: \"x\" is not an integer"));
  EXPECT_THAT(csv->Int(rows[1], 0, 0, 9).status().ToString(), HasSubstr("\"+5\" is not an integer"));
  EXPECT_THAT(csv->Int(rows[2], 0, 0, 9).status().ToString(), HasSubstr("\" 5\" is not an integer"));
  EXPECT_THAT(csv->Int(rows[3], 0, 0, 9).status().ToString(), HasSubstr("t.csv:6: a:"));
  EXPECT_THAT(csv->Int(rows[3], 0, 0, 9).status().ToString(), HasSubstr("is out of range"));
  EXPECT_THAT(csv->Int(rows[4], 0, 0, 9).status().ToString(),
              HasSubstr("t.csv:7: a: -1 is outside the allowed range 0..9"));
}

}  // namespace
}  // namespace fleetcap::openb
