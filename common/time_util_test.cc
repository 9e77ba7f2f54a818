#include "common/time_util.h"

#include <gtest/gtest.h>

namespace fleetcap {
namespace {

TEST(ParseRfc3339, AcceptsUtcAndOffsets) {
  auto utc = ParseRfc3339("at", "2026-01-01T00:00:00Z");
  ASSERT_TRUE(utc.ok()) << utc.status();
  EXPECT_EQ(absl::ToUnixSeconds(*utc), 1767225600);
  auto offset = ParseRfc3339("at", "2026-01-01T01:00:00+01:00");
  ASSERT_TRUE(offset.ok()) << offset.status();
  EXPECT_EQ(*offset, *utc);
}

TEST(ParseRfc3339, RejectsGarbageNamingTheField) {
  auto bad = ParseRfc3339("--at", "yesterday");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("--at"), std::string_view::npos);
  EXPECT_NE(bad.status().message().find("yesterday"), std::string_view::npos);
  EXPECT_EQ(ParseRfc3339("at", "").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(FormatRfc3339, RoundTrips) {
  absl::Time t = absl::FromUnixSeconds(1767225600) + absl::Milliseconds(250);
  EXPECT_EQ(FormatRfc3339(t), "2026-01-01T00:00:00.25Z");
  auto back = ParseRfc3339("t", FormatRfc3339(t));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, t);
}

}  // namespace
}  // namespace fleetcap
