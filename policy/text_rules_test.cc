#include "policy/text_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::policy {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(TextRules, Names) {
  EXPECT_TRUE(IsName("team-00"));
  EXPECT_TRUE(IsName("H100-SXM5-80GB"));
  EXPECT_FALSE(IsName(""));
  EXPECT_FALSE(IsName("-x"));
  EXPECT_FALSE(IsName("'; DROP TABLE teams; --"));
  EXPECT_FALSE(IsName(std::string(64, 'a')));
  EXPECT_FALSE(IsName(std::string("a\0b", 3)));
  EXPECT_TRUE(IsLabelKey("fleetcap.io/team"));
  EXPECT_FALSE(IsLabelKey("team key"));
}

TEST(TextRules, Globs) {
  EXPECT_TRUE(GlobMatch("team-*", "team-00"));
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("a?c*", "abcdef"));
  EXPECT_FALSE(GlobMatch("team-*", "tea"));
  EXPECT_FALSE(GlobMatch("a*b", "aaaa"));
  // No exponential backtracking.
  EXPECT_FALSE(GlobMatch("*a*a*a*a*a*a*a*b", std::string(10000, 'a')));
}

TEST(TextRules, Utf8) {
  EXPECT_TRUE(IsValidUtf8("grüße 日本 😀"));
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc3"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));  // surrogate
  EXPECT_THAT(CheckFreeText("f", "'; DROP TABLE x; --", 100, false), IsOk());
  EXPECT_THAT(CheckFreeText("f", std::string("a\0", 2), 100, false), Not(IsOk()));
  EXPECT_THAT(CheckFreeText("f", "a\nb", 100, false), Not(IsOk()));
  EXPECT_THAT(CheckFreeText("f", "a\nb", 100, true), IsOk());
  EXPECT_THAT(CheckFreeText("description", std::string(101, 'x'), 100, false),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("description: 101 bytes")));
}

TEST(TextRules, Decimals) {
  EXPECT_EQ(*ParseDecimal("12.5", 3), 12500);
  EXPECT_EQ(*ParseDecimal("0.35", 6), 350000);
  EXPECT_EQ(*ParseDecimal("-1", 6), -1000000);
  EXPECT_EQ(*ParseDecimal("7", 0), 7);
  EXPECT_THAT(ParseDecimal("1.2345", 3), Not(IsOk()));
  EXPECT_THAT(ParseDecimal("1e3", 3), Not(IsOk()));
  EXPECT_THAT(ParseDecimal("", 3), Not(IsOk()));
  EXPECT_THAT(ParseDecimal("1.", 3), Not(IsOk()));
  EXPECT_THAT(ParseDecimal("99999999999999999999", 3), Not(IsOk()));
  EXPECT_EQ(FormatDecimal(12500, 3), "12.5");
  EXPECT_EQ(FormatDecimal(350000, 6, 2), "0.35");
  EXPECT_EQ(FormatDecimal(2000000, 6, 2), "2.00");
  EXPECT_EQ(FormatDecimal(-1500, 3), "-1.5");
}

}  // namespace
}  // namespace fleetcap::policy
