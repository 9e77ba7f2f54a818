#include "services/ctl/time_flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/time_util.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// Saturday 2026-12-05, 10:37:12.5 UTC.
const absl::Time kFlagsNow = absl::FromUnixSeconds(1796467032) + absl::Milliseconds(500);

std::string Instant(absl::string_view text, Align align = Align::kSecond) {
  auto t = ParseInstantFlag("--from", text, kFlagsNow, align);
  return t.ok() ? FormatRfc3339(*t) : std::string(t.status().message());
}

TEST(ParseInstantFlag, NamedInstantsAreUtcMidnights) {
  EXPECT_EQ(Instant("today"), "2026-12-05T00:00:00Z");
  EXPECT_EQ(Instant("yesterday"), "2026-12-04T00:00:00Z");
  EXPECT_EQ(Instant("week-start"), "2026-11-30T00:00:00Z");  // the Monday before
  EXPECT_EQ(Instant("month-start"), "2026-12-01T00:00:00Z");
  EXPECT_EQ(Instant("last-month-start"), "2026-11-01T00:00:00Z");
  EXPECT_EQ(Instant("Month-Start"), "2026-12-01T00:00:00Z");
}

TEST(ParseInstantFlag, AMondayIsItsOwnWeekStartAndJanuaryFollowsDecember) {
  const absl::Time monday = absl::FromUnixSeconds(1796601600);  // 2026-12-07T00:00:00Z
  EXPECT_EQ(FormatRfc3339(*ParseInstantFlag("f", "week-start", monday + absl::Hours(5), Align::kSecond)),
            "2026-12-07T00:00:00Z");
  const absl::Time january = absl::FromUnixSeconds(1798761600);  // 2027-01-01T00:00:00Z
  EXPECT_EQ(FormatRfc3339(*ParseInstantFlag("f", "last-month-start", january, Align::kSecond)), "2026-12-01T00:00:00Z");
}

TEST(ParseInstantFlag, RelativeInstantsAreCutToTheSecondOrTheHour) {
  EXPECT_EQ(Instant("now"), "2026-12-05T10:37:12Z");
  EXPECT_EQ(Instant("now", Align::kHour), "2026-12-05T10:00:00Z");
  EXPECT_EQ(Instant("-12h"), "2026-12-04T22:37:12Z");
  EXPECT_EQ(Instant("-7d", Align::kHour), "2026-11-28T10:00:00Z");
  EXPECT_EQ(Instant("-2w", Align::kHour), "2026-11-21T10:00:00Z");
  EXPECT_EQ(Instant("-1D", Align::kHour), "2026-12-04T10:00:00Z");
}

TEST(ParseInstantFlag, Rfc3339IsTakenAsGiven) {
  EXPECT_EQ(Instant("2026-11-03T04:05:06Z", Align::kHour), "2026-11-03T04:05:06Z");
}

TEST(ParseInstantFlag, AnythingElseNamesTheFlagAndTheForms) {
  for (const char* text : {"", "-", "-d", "-7", "7d", "-7x", "- 7d", "-+7d", "-7.5d", "-0d", "--7d", "-9999999999d",
                           "-1000000w", "last week", "2026-13-01T00:00:00Z", "now "}) {
    auto t = ParseInstantFlag("--from", text, kFlagsNow, Align::kSecond);
    EXPECT_THAT(t, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--from"))) << text;
    if (!t.ok()) {
      EXPECT_THAT(t.status().message(), HasSubstr("month-start")) << text;
    }
  }
  EXPECT_THAT(ParseInstantFlag("--from", absl::string_view("now\0", 4), kFlagsNow, Align::kSecond),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(ParseLengthFlag, TakesHoursDaysAndWeeksUpToACentury) {
  EXPECT_EQ(*ParseLengthFlag("--last", "30d"), absl::Hours(720));
  EXPECT_EQ(*ParseLengthFlag("--last", "36h"), absl::Hours(36));
  EXPECT_EQ(*ParseLengthFlag("--last", "2w"), absl::Hours(336));
  EXPECT_THAT(ParseLengthFlag("--last", "36600d"), IsOk());
  for (const char* text : {"", "30", "d", "0d", "-30d", "+30d", "30 d", "1.5d", "30y", "36700d", "99999999999h"}) {
    EXPECT_THAT(ParseLengthFlag("--last", text), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--last")))
        << text;
  }
}

const WindowFlagNames kUsageFlagNames{"--start", "--end", "--last"};

TEST(ParseWindowFlags, LastIsALengthUpToNow) {
  auto w = ParseWindowFlags(kUsageFlagNames, {"", "", "24h"}, kFlagsNow, Align::kHour);
  ASSERT_THAT(w, IsOk());
  EXPECT_EQ(FormatRfc3339(w->start), "2026-12-04T10:00:00Z");
  EXPECT_EQ(FormatRfc3339(w->end), "2026-12-05T10:00:00Z");
}

TEST(ParseWindowFlags, TheEndIsNowAndTheStartADefaultLengthBefore) {
  auto w = ParseWindowFlags(kUsageFlagNames, {"", "", ""}, kFlagsNow, Align::kSecond, absl::Hours(24));
  ASSERT_THAT(w, IsOk());
  EXPECT_EQ(FormatRfc3339(w->start), "2026-12-04T10:37:12Z");
  EXPECT_EQ(FormatRfc3339(w->end), "2026-12-05T10:37:12Z");
  w = ParseWindowFlags(kUsageFlagNames, {"", "yesterday", ""}, kFlagsNow, Align::kSecond, absl::Hours(24));
  ASSERT_THAT(w, IsOk());
  EXPECT_EQ(FormatRfc3339(w->start), "2026-12-03T00:00:00Z");
}

TEST(ParseWindowFlags, MistakesAreNamed) {
  EXPECT_THAT(ParseWindowFlags(kUsageFlagNames, {"", "", ""}, kFlagsNow, Align::kHour),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--start: missing")));
  EXPECT_THAT(ParseWindowFlags(kUsageFlagNames, {"-1d", "", "30d"}, kFlagsNow, Align::kHour),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--last")));
  EXPECT_THAT(ParseWindowFlags(kUsageFlagNames, {"", "today", "30d"}, kFlagsNow, Align::kHour),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--last")));
  EXPECT_THAT(ParseWindowFlags(kUsageFlagNames, {"today", "yesterday", ""}, kFlagsNow, Align::kHour),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--end: 2026-12-04T00:00:00Z is not after")));
  // The start of this hour is not after the start of this hour.
  EXPECT_THAT(ParseWindowFlags(kUsageFlagNames, {"now", "", ""}, kFlagsNow, Align::kHour),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--end")));
}

}  // namespace
}  // namespace fleetcap::ctl
