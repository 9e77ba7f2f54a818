// `fleetcap-optimizer allocate --format json` prints the API's
// RecommendationSet through services/exports/recommendation_set.h. Here its output is parsed into
// fleetcap.v1.RecommendationSet with protobuf's JsonStringToMessage and printed back as `fleetcapctl recommendations
// --format json` prints it: the bytes must be the same.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "fleetcap/v1/allocation.pb.h"
#include "google/protobuf/util/json_util.h"
#include "optimizer/allocation/offline_solver.h"
#include "proto_time.h"
#include "services/ctl/recommendations_format.h"
#include "services/exports/recommendation_set.h"
#include "tests/support/build_paths.h"

namespace fleetcap::ctl {
namespace {

namespace fs = std::filesystem;

const absl::Time kNoon = absl::FromUnixSeconds(1'772'366'400);  // 2026-03-01T12:00:00Z

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Where two texts first differ, with a little of each around it (the texts
// may be megabytes).
std::string FirstDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return "";
  const size_t from = i < 40 ? 0 : i - 40;
  return "at byte " + std::to_string(i) + ":\n  protobuf: " + a.substr(from, 80) +
         "\n  written:  " + b.substr(from, 80);
}

// The JSON written, parsed by protobuf (which refuses unknown fields
// and malformed values) and printed back.
void ExpectProtobufPrintsTheSame(const std::string& written, v1::RecommendationSet* parsed = nullptr) {
  v1::RecommendationSet set;
  const auto status = google::protobuf::util::JsonStringToMessage(written, &set);
  ASSERT_TRUE(status.ok()) << status.ToString() << "\n" << written.substr(0, 200);
  EXPECT_EQ(FirstDifference(RecommendationsJson(set), written), "");
  if (parsed != nullptr) *parsed = std::move(set);
}

std::string Utf8(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
  return out;
}

TEST(AllocateJson, EveryAllocationCaseReadsBackAsTheSameRecommendationSet) {
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(fleetcap::testing::SourcePath("tests/allocation/cases"))) {
    if (entry.is_directory()) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  ASSERT_GE(cases.size(), 9u);
  for (const fs::path& dir : cases) {
    SCOPED_TRACE(dir.filename().string());
    auto solved = allocation::SolveOffline({(dir / "policy.yaml").string(), Read(dir / "policy.yaml"),
                                            (dir / "demand.yaml").string(), Read(dir / "demand.yaml")});
    ASSERT_TRUE(solved.ok()) << solved.status();
    exports::RecommendationSetHeader header;
    header.computed_at = kNoon;
    v1::RecommendationSet parsed;
    ExpectProtobufPrintsTheSame(exports::RecommendationSetJson(header, *solved), &parsed);
    EXPECT_EQ(parsed.run_id(), 0);
    EXPECT_EQ(FromProtoTimestamp(parsed.computed_at()), kNoon);
    ASSERT_EQ(parsed.recommendations_size(), static_cast<int>(solved->size()));
    for (size_t i = 0; i < solved->size(); ++i) {
      const allocation::Recommendation& want = (*solved)[i];
      const v1::Recommendation& got = parsed.recommendations(static_cast<int>(i));
      EXPECT_EQ(got.team(), want.team);
      EXPECT_EQ(got.flavor(), want.flavor);
      EXPECT_EQ(got.demand_milli(), want.demand_milli);
      EXPECT_EQ(got.guarantee_milli(), want.guarantee_milli);
      EXPECT_EQ(got.recommended_milli(), want.recommended_milli);
      EXPECT_EQ(got.has_borrowing_limit_milli(), want.borrowing_limit_milli.has_value());
      EXPECT_EQ(got.borrowing_limit_milli(), want.borrowing_limit_milli.value_or(0));
      EXPECT_EQ(got.lending_limit_milli(), want.lending_limit_milli);
      EXPECT_EQ(got.bound_by(), want.bound_by);
      EXPECT_EQ(got.explanation(), want.explanation);
    }
  }
}

TEST(AllocateJson, TheHeaderReadsBackAtEveryPrecisionAndRange) {
  const absl::Time first = absl::FromCivil(absl::CivilSecond(1, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  const absl::Time last = absl::FromCivil(absl::CivilSecond(9999, 12, 31, 23, 59, 59), absl::UTCTimeZone());
  for (absl::Time t : {kNoon, kNoon + absl::Milliseconds(5), kNoon + absl::Microseconds(5),
                       kNoon + absl::Nanoseconds(5), first, last + absl::Nanoseconds(999'999'999)}) {
    exports::RecommendationSetHeader header;
    header.run_id = std::numeric_limits<int64_t>::max();
    header.policy_version = std::numeric_limits<int32_t>::max();
    header.previous_run_id = std::numeric_limits<int64_t>::max() - 1;
    header.computed_at = t;
    v1::RecommendationSet parsed;
    ExpectProtobufPrintsTheSame(exports::RecommendationSetJson(header, {}), &parsed);
    EXPECT_EQ(FromProtoTimestamp(parsed.computed_at()), t);
  }
  allocation::Recommendation extremes{"t", "f",        std::numeric_limits<int64_t>::max(), 0,
                                      1,   int64_t{0}, std::numeric_limits<int64_t>::max(), "demand",
                                      ""};
  ExpectProtobufPrintsTheSame(exports::RecommendationSetJson({}, {extremes}));
}

// Every code point a string may hold (all but the surrogates), a few
// thousand to a recommendation, escaped exactly as protobuf escapes it.
TEST(AllocateJson, EveryCodePointIsEscapedAsProtobufEscapesIt) {
  std::vector<allocation::Recommendation> recommendations;
  std::string text;
  for (uint32_t cp = 1; cp <= 0x10ffff; ++cp) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    text += Utf8(cp);
    if (text.size() > 8192 || cp == 0x10ffff) {
      allocation::Recommendation r{
          "team-" + std::to_string(recommendations.size()), "gpu", 0, 0, 0, std::nullopt, 0, "demand", std::move(text)};
      recommendations.push_back(std::move(r));
      text.clear();
    }
  }
  const std::string written = exports::RecommendationSetJson({}, recommendations);
  v1::RecommendationSet parsed;
  ExpectProtobufPrintsTheSame(written, &parsed);
  ASSERT_EQ(parsed.recommendations_size(), static_cast<int>(recommendations.size()));
  for (size_t i = 0; i < recommendations.size(); ++i) {
    ASSERT_EQ(parsed.recommendations(static_cast<int>(i)).explanation(), recommendations[i].explanation) << i;
  }
}

}  // namespace
}  // namespace fleetcap::ctl
