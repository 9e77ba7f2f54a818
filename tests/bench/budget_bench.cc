// The budgets of a month over a stored chargeback (docs/insights.md,
// "Budgets"; docs/benchmarks.md): a private PostgreSQL (scripts/pg.sh,
// default settings), migrated and seeded in SQL with D days of chargeback
// lines and their rollups, T teams of W workloads over C clusters
// (tests/support/seeded_chargeback_history.h), then VACUUM ANALYZE. A policy
// of the T teams, each with a budget for the month, is made here.
// Timed K times each, through random hours of the last 30 days, on a fresh
// connection so that its first call is a first call:
//   every budget   ForecastBudgets for the T budgets at once, what the
//                  optimizer computes after each pass and GetBudgets answers
//                  a planner
//   one budget     ForecastBudgets for one team's, what a team token asks
// It prints first call, p50, p99 and max in milliseconds.
//
//   budget_bench [--days D] [--clusters C] [--teams T] [--workloads-per-team W] [--calls K] [--seed S]

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "common/pg_pool.h"
#include "optimizer/budget_pass/budget_states.h"
#include "pqxx/pqxx"
#include "store/migrator.h"
#include "store/pg_chargeback_repository.h"
#include "tests/bench/bench_postgres.h"
#include "tests/support/build_paths.h"
#include "tests/support/seeded_chargeback_history.h"

namespace fleetcap::bench {
namespace {

struct BudgetBenchSettings {
  testing::ChargebackHistoryShape lines;
  int64_t calls = 50;
  int64_t seed = 1;
};

bool ParseBudgetBenchFlags(int argc, char** argv, BudgetBenchSettings* s) {
  s->lines.days = 90;
  for (int i = 1; i + 1 < argc; i += 2) {
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--days") == 0) target = &s->lines.days;
    if (std::strcmp(argv[i], "--clusters") == 0) target = &s->lines.clusters;
    if (std::strcmp(argv[i], "--teams") == 0) target = &s->lines.teams;
    if (std::strcmp(argv[i], "--workloads-per-team") == 0) target = &s->lines.workloads_per_team;
    if (std::strcmp(argv[i], "--calls") == 0) target = &s->calls;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->seed;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1) {
      std::fprintf(stderr, "budget_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1 && s->lines.days >= 31;
}

bool SeedBudgetHistory(const std::string& uri, const testing::ChargebackHistoryShape& shape, absl::Time now) {
  try {
    pqxx::connection conn(uri);
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return false;
    }
    const absl::Time seeding = absl::Now();
    {
      pqxx::work txn(conn);
      testing::SeedChargebackHistory(txn, shape, now);
      txn.commit();
    }
    pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
    std::printf(
        "%lld days, %lld clusters, %lld teams x %lld workloads: %lld chargeback lines an hour; seeded in %.1f s\n",
        static_cast<long long>(shape.days), static_cast<long long>(shape.clusters), static_cast<long long>(shape.teams),
        static_cast<long long>(shape.workloads_per_team), static_cast<long long>(shape.lines_an_hour()),
        absl::ToDoubleSeconds(absl::Now() - seeding));
  } catch (const std::exception& e) {
    std::cerr << "seeding: " << e.what() << "\n";
    return false;
  }
  return true;
}

// The seeded teams "t-0"..., flat, each with a budget in every month.
policy::PolicyDocument BudgetPolicy(int64_t teams, absl::Time first, absl::Time last) {
  policy::PolicyDocument doc;
  for (int64_t t = 0; t < teams; ++t) {
    policy::Team team;
    team.name = "t-" + std::to_string(t);
    doc.teams.push_back(team);
    for (absl::CivilMonth m = absl::ToCivilMonth(first, absl::UTCTimeZone());
         m <= absl::ToCivilMonth(last, absl::UTCTimeZone()); ++m) {
      policy::Budget b;
      b.team = team.name;
      b.year = static_cast<int>(m.year());
      b.month = m.month();
      b.micro_amount = 1'000'000'000;
      doc.budgets.push_back(b);
    }
  }
  return doc;
}

// Times ForecastBudgets through each of `throughs` for the first `most`
// budgets of its month, on a fresh pool; false (having said why) on an error.
bool TimeBudgets(const std::string& uri, const char* name, const policy::PolicyDocument& policy,
                 const std::vector<absl::Time>& throughs, size_t most) {
  auto pool = PgPool::Open(uri, 2);
  if (!pool.ok()) {
    std::cerr << pool.status() << "\n";
    return false;
  }
  store::PgChargebackRepository lines(pool->get());
  std::vector<double> ms;
  size_t budgets = 0;
  for (absl::Time through : throughs) {
    std::vector<policy::Budget> month = budgets::BudgetsOfMonth(policy, through - absl::Seconds(1));
    month.resize(std::min(month.size(), most));
    const absl::Time began = absl::Now();
    auto states = budgets::ForecastBudgets(lines, policy, month, through);
    if (!states.ok()) {
      std::cerr << name << ": " << states.status() << "\n";
      return false;
    }
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - began));
    budgets = states->size();
  }
  const double first = ms.front();
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))]; };
  std::printf("%-16s first %8.2f  p50 %8.2f  p99 %8.2f  max %8.2f ms  (%zu calls, %zu budgets)\n", name, first,
              at(0.50), at(0.99), ms.back(), ms.size(), budgets);
  return true;
}

int BudgetBenchMain(int argc, char** argv) {
  BudgetBenchSettings s;
  if (!ParseBudgetBenchFlags(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: budget_bench [--days D (31 or more)] [--clusters C] [--teams T] [--workloads-per-team W]"
                 " [--calls K] [--seed S]\n");
    return 2;
  }
  auto postgres = BenchPostgres::Start("budgetbench", fleetcap::testing::SourcePath("scripts/pg.sh"));
  if (postgres == nullptr) return 1;
  const absl::Time now = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 3600 * 3600);
  if (!SeedBudgetHistory(postgres->uri(), s.lines, now)) return 1;
  const policy::PolicyDocument policy = BudgetPolicy(s.lines.teams, now - absl::Hours(24 * s.lines.days), now);
  // Through random hours of the last 30 days: the month's days so far and the lookback before them.
  std::mt19937_64 random(static_cast<uint64_t>(s.seed));
  std::uniform_int_distribution<int64_t> hour(0, 24 * 30 - 1);
  std::vector<absl::Time> throughs;
  for (int64_t i = 0; i < s.calls; ++i) throughs.push_back(now - absl::Hours(hour(random)));
  if (!TimeBudgets(postgres->uri(), "every budget", policy, throughs, policy.budgets.size())) return 1;
  if (!TimeBudgets(postgres->uri(), "one budget", policy, throughs, 1)) return 1;
  return 0;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::BudgetBenchMain(argc, argv); }
