#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "common/json_nesting.h"
#include "common/yaml_nesting.h"

namespace fleetcap {
namespace {

std::string Nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(YamlNestingTest, CountsFlowBlockAndOneLineLevelsAlike) {
  EXPECT_EQ(CheckYamlNesting(Nested(64)), std::nullopt);
  ASSERT_TRUE(CheckYamlNesting(Nested(65)).has_value());
  EXPECT_EQ(CheckYamlNesting(Nested(65))->column, 65);
  std::string block;
  for (int level = 0; level < 65; ++level) absl::StrAppend(&block, std::string(level, ' '), "-\n");
  auto problem = CheckYamlNesting(block);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->line, 65);
  EXPECT_EQ(problem->message, "nested deeper than 64 levels");
  std::string one_line;
  for (int level = 0; level < 65; ++level) one_line += "- ";
  EXPECT_TRUE(CheckYamlNesting(one_line + "x").has_value());
  // A map and the list under it at the same indentation are two levels.
  std::string compact;
  for (int level = 0; level < 33; ++level) absl::StrAppend(&compact, std::string(2 * level, ' '), "- a:\n");
  EXPECT_TRUE(CheckYamlNesting(compact).has_value());
}

TEST(YamlNestingTest, BracketsInScalarsAndCommentsAreText) {
  const std::string brackets(200, '[');
  EXPECT_EQ(CheckYamlNesting(absl::StrCat("a: \"", brackets, "\"\nb: '", brackets, "'\nc: x", brackets, "\n# ",
                                          brackets, "\nd: |\n  ", brackets, "\n")),
            std::nullopt);
}

TEST(YamlNestingTest, InvalidYamlIsLeftToTheLoad) {
  EXPECT_EQ(CheckYamlNesting("a: [b"), std::nullopt);
  EXPECT_EQ(CheckYamlNesting("a: *nothing"), std::nullopt);
}

TEST(YamlNestingTest, AliasesThatRepeatTooMuchAreRefused) {
  // Ten times ten times ... : a few hundred bytes that a walker would see as 10^9 nodes.
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    const std::string name(1, c), previous(1, static_cast<char>(c - 1));
    absl::StrAppend(&laughs, name, ": &", name, " [");
    for (int i = 0; i < 10; ++i) absl::StrAppend(&laughs, i == 0 ? "" : ", ", "*", previous);
    laughs += "]\n";
  }
  auto problem = CheckYamlNesting(laughs);
  ASSERT_TRUE(problem.has_value()) << laughs;
  EXPECT_EQ(problem->message, "aliases repeat more than 100000 nodes");
  // Used a few times, as people do, aliases are fine.
  EXPECT_EQ(CheckYamlNesting("base: &base {weight: 1}\nteams:\n  - *base\n  - *base\n"), std::nullopt);
}

TEST(YamlNestingTest, AnAliasInsideItsOwnNodeIsRefused) {
  auto problem = CheckYamlNesting("a: &a [b, *a]\n");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->message, "an alias refers to a node that contains it");
}

TEST(JsonNestingTest, CountsBracketsOutsideStrings) {
  EXPECT_EQ(CheckJsonNesting(Nested(64)), std::nullopt);
  EXPECT_TRUE(CheckJsonNesting(Nested(65)).has_value());
  const std::string brackets(200, '[');
  EXPECT_EQ(CheckJsonNesting(absl::StrCat("{\"a\": \"", brackets, "\\\"", brackets, "\", 'b': '", brackets, "'}")),
            std::nullopt);
  // A closing bracket in a string closes nothing.
  EXPECT_TRUE(
      CheckJsonNesting(absl::StrCat(std::string(40, '['), "\"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\"", std::string(40, '[')))
          .has_value());
}

}  // namespace
}  // namespace fleetcap
