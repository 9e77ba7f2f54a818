#include "common/time_util.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(ParseRfc3339, AcceptsUtcAndOffsets) {
  auto utc = ParseRfc3339("at", "2026-01-01T00:00:00Z");
  ASSERT_THAT(utc, IsOk());
  EXPECT_EQ(absl::ToUnixSeconds(*utc), 1767225600);
  auto offset = ParseRfc3339("at", "2026-01-01T01:00:00+01:00");
  ASSERT_THAT(offset, IsOk());
  EXPECT_EQ(*offset, *utc);
}

TEST(ParseRfc3339, RejectsGarbageNamingTheField) {
  auto bad = ParseRfc3339("--at", "yesterday");
  EXPECT_THAT(bad, StatusIs(absl::StatusCode::kInvalidArgument, AllOf(HasSubstr("--at"), HasSubstr("yesterday"))));
  EXPECT_THAT(ParseRfc3339("at", ""), StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(FormatRfc3339, RoundTrips) {
  absl::Time t = absl::FromUnixSeconds(1767225600) + absl::Milliseconds(250);
  EXPECT_EQ(FormatRfc3339(t), "2026-01-01T00:00:00.25Z");
  auto back = ParseRfc3339("t", FormatRfc3339(t));
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, t);
}

}  // namespace
}  // namespace fleetcap
