// The reads over long windows (the capacity series' held time, the
// chargeback by team over 30 days and by team and month over a year) read
// the rollups whose grain fits the answer, through their indexes (migration
// 0031): their plans on a database seeded with a year of chargeback lines
// and every rollup of them (tests/support/seeded_chargeback_history.h) hold
// no sequential scan of a chargeback table (but of the small monthly team
// rollup, read whole for a year) and read neither the hourly
// lines nor a rollup with more keys than the answer needs.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "store/pg_chargeback_lines_sql.h"
#include "store/pg_chargeback_repository.h"
#include "tests/support/seeded_chargeback_history.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// Each node of a plan as "Node Type on relation (index)".
void CollectLongReadPlanNodes(const nlohmann::json& node, std::multiset<std::string>* out) {
  std::string line = node.value("Node Type", "");
  if (node.contains("Relation Name")) line += " on " + node["Relation Name"].get<std::string>();
  if (node.contains("Index Name")) line += " (" + node["Index Name"].get<std::string>() + ")";
  out->insert(line);
  if (node.contains("Plans")) {
    for (const auto& child : node["Plans"]) CollectLongReadPlanNodes(child, out);
  }
}

// The filters of the plan's scans of `relation` (conditions checked on
// each row the scan reads, beyond its index conditions).
void CollectLongReadFilters(const nlohmann::json& node, const std::string& relation, std::vector<std::string>* out) {
  if (node.value("Relation Name", "") == relation && node.contains("Filter")) {
    out->push_back(node["Filter"].get<std::string>());
  }
  if (node.contains("Plans")) {
    for (const auto& child : node["Plans"]) CollectLongReadFilters(child, relation, out);
  }
}

class LongReadPlansTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    {
      pqxx::work txn(*conn_);
      testing::SeedChargebackHistory(txn, shape_, now_);
      txn.commit();
    }
    pqxx::nontransaction(*conn_).exec("VACUUM ANALYZE");
  }

  std::multiset<std::string> PlanOf(const ChargebackFilter& f, const ChargebackGroupBy& g,
                                    ChargebackResolution resolution) {
    pqxx::nontransaction txn(*conn_);
    auto rows = ExecChargebackLines(txn, "EXPLAIN (FORMAT JSON) ", f, g, resolution);
    std::multiset<std::string> nodes;
    CollectLongReadPlanNodes(nlohmann::json::parse(rows[0][0].as<std::string>())[0]["Plan"], &nodes);
    return nodes;
  }

  // The filters of the plan's scans of `relation`.
  std::vector<std::string> FiltersOf(const ChargebackFilter& f, const ChargebackGroupBy& g,
                                     ChargebackResolution resolution, const std::string& relation) {
    pqxx::nontransaction txn(*conn_);
    auto rows = ExecChargebackLines(txn, "EXPLAIN (FORMAT JSON) ", f, g, resolution);
    std::vector<std::string> filters;
    CollectLongReadFilters(nlohmann::json::parse(rows[0][0].as<std::string>())[0]["Plan"], relation, &filters);
    return filters;
  }

  // No sequential scan of a chargeback table (but the monthly team rollup); no table of `unwanted` read at all.
  static void ExpectNoScanOf(const std::multiset<std::string>& plan, const std::vector<std::string>& unwanted,
                             const std::string& where) {
    for (const std::string& node : plan) {
      // chargeback_monthly_by_team is a year in a few rows a team: a window of months reads most of it.
      if (node != "Seq Scan on chargeback_monthly_by_team") {
        EXPECT_THAT(node, Not(HasSubstr("Seq Scan on chargeback"))) << where << "\n" << ::testing::PrintToString(plan);
      }
    }
    for (const std::string& table : unwanted) {
      const std::string on = "on " + table;
      for (const std::string& node : plan) {
        const bool reads = node.find(on + " ") != std::string::npos ||
                           (node.size() >= on.size() && node.compare(node.size() - on.size(), on.size(), on) == 0);
        EXPECT_FALSE(reads) << where << ": reads " << table << "\n" << ::testing::PrintToString(plan);
      }
    }
  }

  static ChargebackFilter Window(absl::Time start, absl::Time end) {
    ChargebackFilter f;
    f.start = start;
    f.end = end;
    return f;
  }

  static testing::ChargebackHistoryShape Shape() {
    testing::ChargebackHistoryShape shape;
    shape.teams = 12;
    shape.workloads_per_team = 2;
    return shape;
  }

  const testing::ChargebackHistoryShape shape_ = Shape();
  // 2026-12-06T13:00:00Z: neither on a day nor on a month.
  const absl::Time now_ = absl::FromUnixSeconds(1796562000);
};

TEST_F(LongReadPlansTest, TheRollupsAreTheSumsOfTheSeededLines) {
  PgChargebackRepository lines(pool());
  ChargebackGroupBy by_model;
  by_model.model = true;
  // A window on whole months, by month: the monthly rollups, against the hours summed.
  const absl::Time start = MonthStart(now_ - absl::Hours(24 * 200)), end = MonthStart(now_);
  auto months = lines.Lines(Window(start, end), by_model, ChargebackResolution::kNone);
  ASSERT_TRUE(months.ok()) << months.status();
  auto hours = lines.Lines(Window(start, end), by_model, ChargebackResolution::kHour);
  ASSERT_TRUE(hours.ok()) << hours.status();
  int64_t held_months = 0, held_hours = 0, total_months = 0, total_hours = 0;
  for (const ChargebackSum& s : *months) {
    held_months += s.held_milli_seconds;
    total_months += s.total_cost_micro;
  }
  for (const ChargebackSum& s : *hours) {
    held_hours += s.held_milli_seconds;
    total_hours += s.total_cost_micro;
  }
  const int64_t hours_in = (end - start) / absl::Hours(1);
  EXPECT_EQ(held_hours, hours_in * shape_.teams * shape_.workloads_per_team * shape_.held_per_workload_hour);
  EXPECT_EQ(held_months, held_hours);
  EXPECT_EQ(total_months, total_hours);
  // A window with ragged hours, days and months, by team: the three rollups, against the hourly lines.
  ChargebackGroupBy by_team;
  by_team.team = true;
  const absl::Time year_start = now_ - absl::Hours(24 * 365 - 5);
  auto year = lines.Lines(Window(year_start, now_), by_team, ChargebackResolution::kNone);
  ASSERT_TRUE(year.ok()) << year.status();
  int64_t total_year = 0;
  for (const ChargebackSum& s : *year) total_year += s.total_cost_micro;
  pqxx::nontransaction txn(*conn_);
  const auto summed = txn.exec_params1(
      "SELECT sum(total_cost_micro)::bigint FROM chargeback_hourly WHERE hour >= $1::timestamptz AND hour < "
      "$2::timestamptz",
      absl::FormatTime(year_start), absl::FormatTime(now_));
  EXPECT_EQ(total_year, summed[0].as<int64_t>());
  EXPECT_GT(total_year, 0);
}

// Every read Lines serves from the rollups (whole months, whole days and
// ragged hours, one branch a range, each row's period carried by its
// branch, grouped by the keys asked for) equals the same sums taken straight
// from the hourly lines, to the micro-unit: windows ragged at both ends or
// on days or months, every resolution, several groupings, one team, and the
// capacity series' device time only.
TEST_F(LongReadPlansTest, LinesEqualTheHourlyLinesSummed) {
  PgChargebackRepository lines(pool());
  auto reference = [&](const ChargebackFilter& f, const ChargebackGroupBy& g, ChargebackResolution resolution) {
    const char* period = resolution == ChargebackResolution::kHour    ? "hour"
                         : resolution == ChargebackResolution::kDay   ? "date_trunc('day', hour, 'UTC')"
                         : resolution == ChargebackResolution::kMonth ? "date_trunc('month', hour, 'UTC')"
                                                                      : "$1::timestamptz";
    auto key = [](bool grouped, const char* column) { return grouped ? std::string(column) : std::string("''"); };
    std::string order = "1";
    for (const auto& [grouped, column] : {std::pair{g.team, "team"}, std::pair{g.cluster, "cluster"},
                                          std::pair{g.model, "model"}, std::pair{g.line_kind, "line_kind"}}) {
      if (grouped) order += std::string(", ") + column + " COLLATE \"C\"";
    }
    const std::string money = f.device_time_only ? "0, 0, 0, 0"
                                                 : "sum(direct_cost_micro), sum(idle_cost_micro),"
                                                   " sum(shared_cost_micro), sum(total_cost_micro)";
    const std::string sql =
        std::string("SELECT extract(epoch FROM ") + period + ")::bigint, " + key(g.team, "team") + ", " +
        key(g.cluster, "cluster") + ", " + key(g.model, "model") + ", " + key(g.line_kind, "line_kind") +
        ", sum(held_milli_seconds)::bigint, sum(used_milli_seconds)::bigint, sum(observed_milli_seconds)::bigint, " +
        money +
        ", bool_or(no_telemetry) FROM chargeback_hourly WHERE hour >= $1::timestamptz AND hour <"
        " $2::timestamptz" +
        (f.teams.empty() ? std::string() : " AND team = '" + f.teams[0] + "'") + " GROUP BY 1, 2, 3, 4, 5 ORDER BY " +
        order;
    pqxx::nontransaction txn(*conn_);
    std::vector<ChargebackSum> out;
    for (const auto& row : txn.exec_params(sql, absl::FormatTime(f.start), absl::FormatTime(f.end))) {
      ChargebackSum s;
      s.start = absl::FromUnixSeconds(row[0].as<int64_t>());
      s.team = row[1].as<std::string>();
      s.cluster = row[2].as<std::string>();
      s.model = row[3].as<std::string>();
      s.line_kind = row[4].as<std::string>();
      s.held_milli_seconds = row[5].as<int64_t>();
      s.used_milli_seconds = row[6].as<int64_t>();
      s.observed_milli_seconds = row[7].as<int64_t>();
      s.direct_cost_micro = row[8].as<int64_t>();
      s.idle_cost_micro = row[9].as<int64_t>();
      s.shared_cost_micro = row[10].as<int64_t>();
      s.total_cost_micro = row[11].as<int64_t>();
      s.no_telemetry = row[12].as<bool>();
      out.push_back(std::move(s));
    }
    return out;
  };
  const absl::Time month = MonthStart(now_);
  const struct {
    absl::Time start, end;
  } windows[] = {
      {now_ - absl::Hours(24 * 30), now_},                              // ragged hours at both ends, 29 days
      {now_ - absl::Hours(24 * 365), now_},                             // ragged hours, days and months
      {now_ - absl::Hours(24 * 365 - 5), now_ - absl::Hours(24 * 40)},  // ragged both ends, across months
      {DayStart(now_) - absl::Hours(24 * 90), DayStart(now_)},          // whole days
      {MonthStart(month - absl::Hours(24 * 100)), month},               // whole months
      {now_ - absl::Hours(30), now_ - absl::Hours(2)},                  // no whole day
  };
  ChargebackGroupBy by_team, by_model, by_all;
  by_team.team = true;
  by_model.model = true;
  by_all.team = by_all.cluster = by_all.model = by_all.line_kind = true;
  int compared = 0;
  for (const auto& w : windows) {
    for (const ChargebackResolution resolution : {ChargebackResolution::kHour, ChargebackResolution::kDay,
                                                  ChargebackResolution::kMonth, ChargebackResolution::kNone}) {
      // By hour, the windows of up to 90 days (a year of hours by every key is a third of a million lines).
      if (resolution == ChargebackResolution::kHour && w.end - w.start > absl::Hours(24 * 90)) continue;
      for (const ChargebackGroupBy& g : {by_team, by_model, by_all}) {
        // One team by team; device time only by model (as the capacity series asks).
        std::vector<int> variants = {0};
        if (g.team && !g.model) variants.push_back(1);
        if (g.model && !g.team) variants.push_back(2);
        for (const int variant : variants) {
          ChargebackFilter f = Window(w.start, w.end);
          if (variant == 1) f.teams = {"t-3"};
          if (variant == 2) f.device_time_only = true;
          const std::string where =
              absl::StrCat(absl::FormatTime(w.start), " .. ", absl::FormatTime(w.end), " resolution ",
                           static_cast<int>(resolution), " team ", g.team, " model ", g.model, " variant ", variant);
          auto got = lines.Lines(f, g, resolution);
          ASSERT_TRUE(got.ok()) << where << ": " << got.status();
          const std::vector<ChargebackSum> want = reference(f, g, resolution);
          ASSERT_FALSE(want.empty()) << where;
          ASSERT_EQ(got->size(), want.size()) << where;
          for (size_t i = 0; i < want.size(); ++i) EXPECT_TRUE((*got)[i] == want[i]) << where << " line " << i;
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, (6 * 3 + 3) * 5);
}

// One seeded year (the seeding is most of the time) for every plan.
TEST_F(LongReadPlansTest, LongWindowsReadTheRollupsOfTheirGrainByIndex) {
  {
    // The capacity series by model reads the hours by model.
    for (const absl::Duration ago : {absl::ZeroDuration(), absl::Hours(24 * 30 + 7)}) {
      ChargebackFilter f = Window(now_ - ago - absl::Hours(24 * 90), now_ - ago);
      f.device_time_only = true;
      for (const bool by_cluster : {false, true}) {
        ChargebackGroupBy g;
        g.model = true;
        g.cluster = by_cluster;
        const std::string where = "90 days by model, ending " + absl::FormatDuration(ago) + " ago";
        const std::multiset<std::string> plan = PlanOf(f, g, ChargebackResolution::kHour);
        ExpectNoScanOf(plan, {"chargeback_hourly", "chargeback_hourly_by_team"}, where);
        EXPECT_THAT(plan, Contains(HasSubstr("(chargeback_hourly_by_model_by_hour)"))) << where;
      }
    }
  }
  {
    // One team's hours, by index.
    ChargebackFilter f = Window(now_ - absl::Hours(24 * 90), now_);
    f.teams = {"t-3"};
    f.device_time_only = true;
    ChargebackGroupBy g;
    g.team = true;
    const std::multiset<std::string> plan = PlanOf(f, g, ChargebackResolution::kHour);
    ExpectNoScanOf(plan, {"chargeback_hourly"}, "one team's 90 days by hour");
    EXPECT_THAT(plan, Contains(HasSubstr("on chargeback_hourly_by_team"))) << ::testing::PrintToString(plan);
  }
  {
    // The chargeback by team reads the team rollups of its grain.
    ChargebackGroupBy g;
    g.team = true;
    // 30 days from an hour that is on no day: the ragged hours and 29 days.
    const std::multiset<std::string> month =
        PlanOf(Window(now_ - absl::Hours(24 * 30), now_), g, ChargebackResolution::kNone);
    ExpectNoScanOf(month, {"chargeback_hourly", "chargeback_daily", "chargeback_monthly"}, "30 days by team");
    EXPECT_THAT(month, Contains(HasSubstr("on chargeback_daily_by_team"))) << ::testing::PrintToString(month);
    // The ragged hours are found by their ranges in the hour index, not by
    // filtering every hour of the window (the ranges OR'd in one scan were
    // checked on each of 30 days of rows).
    for (const absl::Duration ago : {absl::ZeroDuration(), absl::Hours(24 * 200 + 5)}) {
      for (const auto& [days, resolution] :
           {std::pair{30, ChargebackResolution::kNone}, std::pair{365, ChargebackResolution::kMonth},
            std::pair{90, ChargebackResolution::kDay}}) {
        const ChargebackFilter f = Window(now_ - ago - absl::Hours(24 * days), now_ - ago);
        for (const char* table : {"chargeback_hourly_by_team", "chargeback_daily_by_team"}) {
          EXPECT_THAT(FiltersOf(f, g, resolution, table), Not(Contains(HasSubstr("OR"))))
              << days << " days by team, ending " << absl::FormatDuration(ago) << " ago: " << table;
        }
      }
    }
    // 365 days by month: whole months from the monthly team rollup, the ragged days and hours around them.
    for (const ChargebackResolution resolution : {ChargebackResolution::kMonth, ChargebackResolution::kNone}) {
      const std::multiset<std::string> year = PlanOf(Window(now_ - absl::Hours(24 * 365), now_), g, resolution);
      ExpectNoScanOf(year, {"chargeback_hourly", "chargeback_daily", "chargeback_monthly"}, "365 days by team");
      EXPECT_THAT(year, Contains(HasSubstr("on chargeback_monthly_by_team"))) << ::testing::PrintToString(year);
      EXPECT_THAT(year, Contains(HasSubstr("(chargeback_daily_by_team_by_day)"))) << ::testing::PrintToString(year);
      EXPECT_THAT(year, Contains(HasSubstr("(chargeback_hourly_by_team_by_hour)"))) << ::testing::PrintToString(year);
    }
    // Whole months: the monthly team rollup alone.
    const std::multiset<std::string> months =
        PlanOf(Window(MonthStart(now_ - absl::Hours(24 * 364)), MonthStart(now_)), g, ChargebackResolution::kMonth);
    ExpectNoScanOf(months, {"chargeback_hourly", "chargeback_daily", "chargeback_monthly", "chargeback_daily_by_team"},
                   "12 whole months by team");
  }
}

}  // namespace
}  // namespace fleetcap::store
