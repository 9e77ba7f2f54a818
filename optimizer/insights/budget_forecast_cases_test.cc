// Runs every case of cases/budgets/ (one YAML file each: a budget, the
// subtree's cost per day and the instant the chargeback is computed through
// -> spent, the rest's forecast, the projection, the status and words of the
// method; cases/budgets/README.md gives the format) and checks each.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "common/time_util.h"
#include "optimizer/insights/budget_forecast.h"
#include "tests/support/build_paths.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::insights {
namespace {

absl::Time Time(const std::string& s) {
  absl::StatusOr<absl::Time> t = ParseRfc3339("time", s);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : absl::InfinitePast();
}

absl::Time Day(const std::string& date) { return Time(date + "T00:00:00Z"); }

int64_t Micro(const std::string& s) {
  int64_t v = 0;
  EXPECT_TRUE(absl::SimpleAtoi(s, &v)) << s;
  return v;
}

// "2026-12-01 1000000", or "2026-11-24..2026-12-07 1000000" for each day of the range.
void AddDays(const std::string& row, std::vector<DayCost>& days) {
  std::vector<std::string> fields = absl::StrSplit(row, ' ', absl::SkipEmpty());
  ASSERT_EQ(fields.size(), 2u) << row;
  std::vector<std::string> range = absl::StrSplit(fields[0], "..");
  const absl::Time first = Day(range[0]), last = Day(range.back());
  for (absl::Time d = first; d <= last; d += absl::Hours(24)) days.push_back({d, Micro(fields[1])});
}

struct Case {
  BudgetForecastInput input;
  YAML::Node expect;
};

Case Load(const std::filesystem::path& path) {
  const YAML::Node doc = YAML::LoadFile(path.string());
  Case c;
  std::vector<std::string> budget = absl::StrSplit(doc["budget"].as<std::string>(), ' ', absl::SkipEmpty());
  EXPECT_EQ(budget.size(), 3u);
  budget.resize(3, "0");
  c.input.budget.team = budget[0];
  EXPECT_TRUE(absl::SimpleAtoi(budget[1].substr(0, 4), &c.input.budget.year));
  EXPECT_TRUE(absl::SimpleAtoi(budget[1].substr(5), &c.input.budget.month));
  c.input.budget.micro_amount = Micro(budget[2]);
  c.input.through = Time(doc["through"].as<std::string>());
  if (doc["days"]) {
    for (const YAML::Node& n : doc["days"]) AddDays(n.as<std::string>(), c.input.days);
  }
  c.expect = doc["expect"];
  return c;
}

std::vector<std::filesystem::path> CaseFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(fleetcap::testing::SourcePath("optimizer/insights/cases/budgets"))) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(BudgetForecastCases, EveryCaseGivesItsExpectedForecast) {
  const std::vector<std::filesystem::path> files = CaseFiles();
  ASSERT_GE(files.size(), 10u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const Case c = Load(path);
    absl::StatusOr<BudgetForecast> f = ForecastBudget(c.input);
    ASSERT_TRUE(f.ok()) << f.status();
    EXPECT_EQ(f->amount_micro, c.input.budget.micro_amount);
    EXPECT_EQ(f->spent_micro, c.expect["spent"].as<int64_t>());
    EXPECT_EQ(f->forecast_rest_micro, c.expect["rest"].as<int64_t>());
    EXPECT_EQ(f->projected_micro, c.expect["projected"].as<int64_t>());
    EXPECT_EQ(f->status, c.expect["status"].as<std::string>());
    EXPECT_THAT(f->method, ::testing::HasSubstr(c.expect["method"].as<std::string>()));
  }
}

TEST(BudgetForecast, MonthsAreUtcCalendarMonths) {
  policy::Budget feb2028;
  feb2028.year = 2028;
  feb2028.month = 2;
  EXPECT_EQ(MonthStart(feb2028), Time("2028-02-01T00:00:00Z"));
  EXPECT_EQ(MonthEnd(feb2028), Time("2028-03-01T00:00:00Z"));
  policy::Budget dec;
  dec.year = 2026;
  dec.month = 12;
  EXPECT_EQ(MonthEnd(dec), Time("2027-01-01T00:00:00Z"));
  // The lookback reaches back before the month on its first days, never after its start.
  EXPECT_EQ(HistoryStart(dec, Time("2026-12-03T05:00:00Z")), Time("2026-11-26T00:00:00Z"));
  EXPECT_EQ(HistoryStart(dec, Time("2026-12-20T05:00:00Z")), Time("2026-12-01T00:00:00Z"));
}

TEST(BudgetForecast, ASumPastInt64IsOutOfRangeNeverWrapped) {
  BudgetForecastInput input;
  input.budget.year = 2026;
  input.budget.month = 12;
  input.through = Time("2026-12-03T00:00:00Z");
  input.days = {{Day("2026-12-01"), INT64_MAX}, {Day("2026-12-02"), INT64_MAX}};
  EXPECT_EQ(ForecastBudget(input).status().code(), absl::StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace fleetcap::insights
