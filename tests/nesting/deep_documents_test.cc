// Every parser of outside input, given documents nested far deeper than the
// limit, on a thread with a small stack (docs/security.md, "Nesting"). Before
// the limit, the 200-deep documents alone overflowed a 104 KiB civetweb worker
// stack inside yaml-cpp and killed the process; here the stack is smaller
// still, so a parser that recursed before checking depth would crash this test
// whatever stack the request handlers get.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstdlib>
#include <functional>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/json_nesting.h"
#include "common/yaml_nesting.h"
#include "optimizer/allocation/demand_document.h"
#include "optimizer/whatif/scenario_parser.h"
#include "policy/policy_parser.h"

namespace fleetcap {
namespace {

using ::testing::HasSubstr;

// A small stack, but not one too small for a document at the limit. Sanitizers
// make every frame several times larger, so they get more.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kSmallStackBytes = size_t{512} << 10;
#else
constexpr size_t kSmallStackBytes = size_t{128} << 10;
#endif

void RunOnSmallStack(const std::function<void()>& work) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, kSmallStackBytes), 0);
  pthread_t thread;
  auto body = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, body, const_cast<std::function<void()>*>(&work)), 0);
  pthread_attr_destroy(&attributes);
  pthread_join(thread, nullptr);
}

std::string FlowYaml(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// `{a: {a: … x}}`.
std::string FlowMapYaml(int depth) {
  std::string yaml;
  for (int level = 0; level < depth; ++level) yaml += "{a: ";
  return yaml + "x" + std::string(depth, '}');
}

// One level per line: `-`, then ` -` one column further in, and so on.
std::string BlockYaml(int depth) {
  std::string yaml;
  for (int level = 0; level < depth; ++level) absl::StrAppend(&yaml, std::string(level, ' '), "-\n");
  return yaml;
}

// Every level on one line: `- - - … x`.
std::string OneLineYaml(int depth) {
  std::string yaml;
  for (int level = 0; level < depth; ++level) yaml += "- ";
  return yaml + "x\n";
}

struct Deep {
  const char* name;
  std::string yaml;
};

std::vector<Deep> DeepDocuments() {
  return {{"flow 200", FlowYaml(200)},
          {"flow 10000", FlowYaml(10000)},
          {"flow maps 10000", FlowMapYaml(10000)},
          {"block 200", BlockYaml(200)},
          {"one line 200", OneLineYaml(200)},
          {"under a key", absl::StrCat("version: 1\ndemand:\n  - ", FlowYaml(1000), "\n")}};
}

TEST(DeepDocumentsTest, PoliciesScenariosAndDemandFilesRefuseThemOnASmallStack) {
  for (const Deep& deep : DeepDocuments()) {
    RunOnSmallStack([&] {
      const policy::ParsedPolicy policy = policy::ParsePolicy(deep.yaml);
      EXPECT_THAT(policy::FormatPolicyErrors("policy", policy.errors), HasSubstr("nested deeper than 64 levels"))
          << deep.name;
      const whatif::ParsedScenario scenario = whatif::ParseScenario(deep.yaml);
      EXPECT_THAT(policy::FormatPolicyErrors("scenario", scenario.errors), HasSubstr("nested deeper than 64 levels"))
          << deep.name;
      const allocation::ParsedDemand demand = allocation::ParseDemand(deep.yaml);
      EXPECT_THAT(policy::FormatPolicyErrors("demand", demand.errors), HasSubstr("nested deeper than 64 levels"))
          << deep.name;
    });
  }
}

TEST(DeepDocumentsTest, TheRefusalNamesTheLineAndColumnOfTheLevelTooDeep) {
  const whatif::ParsedScenario scenario =
      whatif::ParseScenario(absl::StrCat("version: 1\ndemand:\n  - ", FlowYaml(65)));
  ASSERT_EQ(scenario.errors.size(), 1u);
  EXPECT_EQ(policy::FormatPolicyErrors("scenario", scenario.errors),
            "scenario:3:67: document: nested deeper than 64 levels\n");
}

TEST(DeepDocumentsTest, DocumentsAtTheLimitParseOnASmallStack) {
  // 64 levels in all: the root map, the demand list, 62 brackets.
  const std::string at_limit = absl::StrCat("version: 1\ndemand:\n  - ", FlowYaml(62), "\n");
  RunOnSmallStack([&] {
    EXPECT_EQ(CheckYamlNesting(at_limit), std::nullopt);
    const whatif::ParsedScenario scenario = whatif::ParseScenario(at_limit);
    // Refused for what it says (a list is not a demand change), not for its depth.
    EXPECT_THAT(policy::FormatPolicyErrors("scenario", scenario.errors), ::testing::Not(HasSubstr("nested deeper")));
    EXPECT_FALSE(scenario.errors.empty());
  });
}

TEST(DeepDocumentsTest, JsonDeeperThanTheLimitIsRefusedWithItsLine) {
  EXPECT_EQ(CheckJsonNesting(FlowYaml(64)), std::nullopt);
  const auto problem = CheckJsonNesting(absl::StrCat("{\n\"a\":\n", FlowYaml(64), "}"));
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->line, 3);
  EXPECT_EQ(problem->column, 64);
  EXPECT_EQ(problem->message, "nested deeper than 64 levels");
  EXPECT_EQ(NestingError("request body", *problem).message(), "request body: line 3: nested deeper than 64 levels");
}

}  // namespace
}  // namespace fleetcap
