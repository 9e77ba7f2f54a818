// Runs every case of tests/allocation/cases/ (a folder each: policy.yaml,
// demand.yaml, expected.json) through the offline solver, the code path of
// `fleetcap-optimizer allocate`. expected.json lists every recommendation in
// output order with the fields the case pins down (worked out by hand, its
// "about" says how), named as in the .proto with plain numbers; each one
// given must match the output's proto3 JSON (camelCase names, int64 as
// strings).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "nlohmann/json.hpp"
#include "optimizer/allocation/offline_solver.h"
#include "services/exports/recommendation_set.h"
#include "tests/support/build_paths.h"

namespace fleetcap::allocation {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> Cases() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(fleetcap::testing::SourcePath("tests/allocation/cases"))) {
    if (entry.is_directory()) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// "recommended_milli" -> "recommendedMilli", as proto3 JSON names fields.
std::string JsonName(const std::string& field) {
  std::string out;
  bool upper = false;
  for (char c : field) {
    if (c == '_') {
      upper = true;
    } else {
      out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    }
  }
  return out;
}

// An expected value as proto3 JSON writes it: integers (all int64 here) as strings.
nlohmann::json AsProtoJson(const nlohmann::json& value) {
  return value.is_number_integer() ? nlohmann::json(value.dump()) : value;
}

std::string SetJson(const std::vector<Recommendation>& recommendations) {
  return exports::RecommendationSetJson(exports::RecommendationSetHeader{}, recommendations);
}

SolverInput CaseInput(const fs::path& dir) {
  return {(dir / "policy.yaml").string(), Read(dir / "policy.yaml"), (dir / "demand.yaml").string(),
          Read(dir / "demand.yaml")};
}

TEST(AllocationCases, TheRequiredCasesArePresent) {
  std::vector<std::string> names;
  for (const auto& c : Cases()) names.push_back(c.filename().string());
  EXPECT_THAT(names,
              ::testing::IsSupersetOf({"equal_weights", "weighted", "guarantees_exceed_demand", "borrowing_limit",
                                       "lending_limit", "three_level_tree", "oversubscribed_guarantees", "hundred_labs",
                                       "flavor_weights_by_cost", "whole_devices"}));
}

TEST(AllocationCases, EachCaseGivesItsExpectedRecommendations) {
  for (const fs::path& dir : Cases()) {
    SCOPED_TRACE(dir.filename().string());
    auto solved = SolveOffline(CaseInput(dir));
    ASSERT_TRUE(solved.ok()) << solved.status();
    const nlohmann::json actual = nlohmann::json::parse(SetJson(*solved))["recommendations"];
    const nlohmann::json expected = nlohmann::json::parse(Read(dir / "expected.json"))["recommendations"];
    ASSERT_EQ(actual.size(), expected.size()) << actual.dump(2);
    for (size_t i = 0; i < expected.size(); ++i) {
      for (const auto& [field, value] : expected[i].items()) {
        EXPECT_EQ(actual[i].value(JsonName(field), nlohmann::json()), AsProtoJson(value))
            << "recommendation " << i << " (" << actual[i]["team"] << " on " << actual[i]["flavor"] << ") field "
            << field;
      }
      EXPECT_FALSE(actual[i]["explanation"].get<std::string>().empty());
    }
  }
}

TEST(AllocationCases, SolvingTwiceGivesTheSameBytes) {
  for (const fs::path& dir : Cases()) {
    auto first = SolveOffline(CaseInput(dir));
    auto second = SolveOffline(CaseInput(dir));
    ASSERT_TRUE(first.ok() && second.ok()) << dir;
    EXPECT_EQ(SetJson(*first), SetJson(*second)) << dir;
    EXPECT_EQ(RecommendationsTable(*first), RecommendationsTable(*second)) << dir;
  }
}

}  // namespace
}  // namespace fleetcap::allocation
