// The RecommendationSet's JSON, field by field: the bytes
// `fleetcap-optimizer allocate --format json` and `fleetcapctl recommendations
// --format json` print.

#include "services/exports/recommendation_set.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <utility>

namespace fleetcap::exports {
namespace {

using allocation::Recommendation;
using ::testing::HasSubstr;

const absl::Time kNoon = absl::FromUnixSeconds(1'772'366'400);  // 2026-03-01T12:00:00Z

// The set's JSON with one recommendation for `team`.
std::string WithTeam(const std::string& team) {
  Recommendation r;
  r.team = team;
  RecommendationSetHeader header;
  header.computed_at = kNoon;
  return RecommendationSetJson(header, {r});
}

std::string ComputedAt(absl::Time t) {
  RecommendationSetHeader header;
  header.computed_at = t;
  return RecommendationSetJson(header, {});
}

TEST(RecommendationSetJson, EscapesStringsAsProtobufDoes) {
  const std::pair<std::string, std::string> cases[] = {
      {"plain", "\"plain\""},
      {"q\" b\\ <a> & ' /", R"("q\" b\\ \u003ca\u003e & ' /")"},
      {"\b\t\n\f\r\x01\x1f\x7f", R"("\b\t\n\f\r\u0001\u001f\u007f")"},
      // Non-ASCII text stays as it is, except invisible format characters.
      {"\xc3\xa9 \xe2\x80\x8b \xe2\x80\xa8 \xef\xbb\xbf", "\"\xc3\xa9 \\u200b \\u2028 \\ufeff\""},
      // Past U+FFFF: a surrogate pair (U+E0001, LANGUAGE TAG), or the bytes (U+1F600).
      {"\xf3\xa0\x80\x81", R"("\udb40\udc01")"},
      {"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},
  };
  for (const auto& [team, escaped] : cases) {
    EXPECT_THAT(WithTeam(team), HasSubstr("   \"team\": " + escaped + ",\n")) << escaped;
  }
}

TEST(RecommendationSetJson, TimestampsUseZeroThreeSixOrNineFractionalDigits) {
  EXPECT_THAT(ComputedAt(kNoon), HasSubstr(" \"computedAt\": \"2026-03-01T12:00:00Z\"\n"));
  EXPECT_THAT(ComputedAt(kNoon + absl::Milliseconds(100)), HasSubstr("\"2026-03-01T12:00:00.100Z\""));
  EXPECT_THAT(ComputedAt(kNoon + absl::Microseconds(123456)), HasSubstr("\"2026-03-01T12:00:00.123456Z\""));
  EXPECT_THAT(ComputedAt(kNoon + absl::Nanoseconds(123456789)), HasSubstr("\"2026-03-01T12:00:00.123456789Z\""));
  EXPECT_THAT(ComputedAt(absl::FromCivil(absl::CivilSecond(1, 1, 1, 0, 0, 0), absl::UTCTimeZone())),
              HasSubstr("\"0001-01-01T00:00:00Z\""));
}

TEST(RecommendationSetJson, AnEmptySetHasItsHeaderAndAnEmptyList) {
  RecommendationSetHeader header;
  header.run_id = 12;
  header.computed_at = kNoon;
  header.policy_version = 3;
  header.previous_run_id = 11;
  EXPECT_EQ(RecommendationSetJson(header, {}),
            "{\n"
            " \"runId\": \"12\",\n"
            " \"policyVersion\": 3,\n"
            " \"recommendations\": [],\n"
            " \"previousRunId\": \"11\",\n"
            " \"flavorNodeLabels\": [],\n"
            " \"computedAt\": \"2026-03-01T12:00:00Z\"\n"
            "}\n");
}

TEST(RecommendationSetJson, EveryFieldIsWrittenAndAnUnlimitedBorrowingLimitIsLeftOut) {
  Recommendation limited{"lab-a", "gpu", 9000, 4000, 6000, 2000, 1000, "borrowing_limit", "capped"};
  limited.measured_demand_milli = 7500;  // before the headroom
  Recommendation unlimited{"lab-b", "gpu", 0, 0, 0, std::nullopt, 0, "demand", ""};
  RecommendationSetHeader header;
  header.computed_at = kNoon;
  EXPECT_EQ(RecommendationSetJson(header, {limited, unlimited}),
            "{\n"
            " \"runId\": \"0\",\n"
            " \"policyVersion\": 0,\n"
            " \"recommendations\": [\n"
            "  {\n"
            "   \"team\": \"lab-a\",\n"
            "   \"flavor\": \"gpu\",\n"
            "   \"demandMilli\": \"9000\",\n"
            "   \"guaranteeMilli\": \"4000\",\n"
            "   \"recommendedMilli\": \"6000\",\n"
            "   \"lendingLimitMilli\": \"1000\",\n"
            "   \"boundBy\": \"borrowing_limit\",\n"
            "   \"explanation\": \"capped\",\n"
            "   \"borrowingLimitMilli\": \"2000\",\n"
            "   \"kueueBorrowingLimit\": \"0\",\n"
            "   \"kueueLendingLimit\": \"3\",\n"
            "   \"measuredDemandMilli\": \"7500\"\n"
            "  },\n"
            "  {\n"
            "   \"team\": \"lab-b\",\n"
            "   \"flavor\": \"gpu\",\n"
            "   \"demandMilli\": \"0\",\n"
            "   \"guaranteeMilli\": \"0\",\n"
            "   \"recommendedMilli\": \"0\",\n"
            "   \"lendingLimitMilli\": \"0\",\n"
            "   \"boundBy\": \"demand\",\n"
            "   \"explanation\": \"\"\n"
            "  }\n"
            " ],\n"
            " \"previousRunId\": \"0\",\n"
            " \"flavorNodeLabels\": [],\n"
            " \"computedAt\": \"2026-03-01T12:00:00Z\"\n"
            "}\n");
}

}  // namespace
}  // namespace fleetcap::exports
