// Runs every case of cases/spend_change/ (one YAML file each: the two
// windows' lines -> the costs, the drivers and their top contributions;
// cases/spend_change/README.md gives the format).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "optimizer/insights/spend_change.h"
#include "tests/support/build_paths.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::insights {
namespace {

std::string Key(const std::string& field) { return field == "-" ? "" : field; }

std::vector<std::string> Fields(const YAML::Node& n, size_t count) {
  std::vector<std::string> f = absl::StrSplit(n.as<std::string>(), ' ', absl::SkipEmpty());
  EXPECT_EQ(f.size(), count) << n.as<std::string>();
  f.resize(count, "0");
  return f;
}

std::vector<SpendLine> Lines(const YAML::Node& rows) {
  std::vector<SpendLine> lines;
  for (const YAML::Node& n : rows) {
    const auto f = Fields(n, 10);
    SpendLine l{Key(f[0]), Key(f[1]),        Key(f[2]),        Key(f[3]),        Key(f[4]),
                f[5],      std::stoll(f[6]), std::stoll(f[7]), std::stoll(f[8]), std::stoll(f[9])};
    l.total_cost_micro = l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro;
    lines.push_back(l);
  }
  return lines;
}

// A contribution as the case files write it.
std::string Format(const SpendContribution& c) {
  auto f = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  return absl::StrJoin({f(c.team), f(c.namespace_name), f(c.workload), f(c.model), std::to_string(c.change_micro)},
                       " ");
}

std::vector<std::filesystem::path> CaseFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(fleetcap::testing::SourcePath("optimizer/insights/cases/spend_change"))) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(SpendChangeCases, EveryCaseGivesItsExpectedDriversAndTheyAddUpToTheChange) {
  const std::vector<std::filesystem::path> files = CaseFiles();
  ASSERT_GE(files.size(), 8u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const YAML::Node doc = YAML::LoadFile(file.string());
    const YAML::Node expect = doc["expect"];
    absl::StatusOr<SpendChange> got =
        ExplainSpendChange(Lines(doc["previous"]), Lines(doc["current"]), doc["top"] ? doc["top"].as<int>() : 5);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->previous_cost_micro, expect["previous"].as<int64_t>());
    EXPECT_EQ(got->current_cost_micro, expect["current"].as<int64_t>());
    EXPECT_EQ(got->change_micro, expect["change"].as<int64_t>());
    ASSERT_EQ(got->drivers.size(), kSpendDriverCount);
    int64_t sum = 0;
    for (size_t d = 0; d < kSpendDriverCount; ++d) {
      const SpendDriver& driver = got->drivers[d];
      SCOPED_TRACE(driver.name);
      EXPECT_EQ(driver.name, kSpendDrivers[d]);
      ASSERT_TRUE(expect["drivers"][driver.name]) << "the case does not list the driver";
      EXPECT_EQ(driver.change_micro, expect["drivers"][driver.name].as<int64_t>());
      sum += driver.change_micro;
      if (!expect["top"] || !expect["top"][driver.name]) continue;
      std::vector<std::string> top, want;
      for (const SpendContribution& c : driver.top) top.push_back(Format(c));
      for (const YAML::Node& n : expect["top"][driver.name]) {
        const auto f = Fields(n, 5);
        want.push_back(absl::StrJoin(f, " "));
      }
      EXPECT_THAT(top, ::testing::ElementsAreArray(want));
    }
    EXPECT_EQ(sum, got->change_micro);
  }
}

}  // namespace
}  // namespace fleetcap::insights
