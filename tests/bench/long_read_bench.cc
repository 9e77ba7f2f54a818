// Capacity and chargeback over long windows (GET /v1/fleet/capacity 90 days
// hourly, GET /v1/chargeback 30 days by team and 365 days by team and month)
// over a year of history (docs/benchmarks.md, "Capacity and chargeback over
// long windows"): a private PostgreSQL (scripts/pg.sh, default settings),
// migrated, seeded in SQL with N devices over C clusters in service all
// year (tests/support/seeded_hold_history.h, with holds on its last day
// only: these reads never touch holds) and a year of chargeback lines and
// their rollups as the optimizer leaves them, T teams of W workloads
// (tests/support/seeded_chargeback_history.h), then VACUUM ANALYZE as
// autovacuum would leave it.
// Each read is timed K times over windows ending at random hours of the
// last 30 days, each series on a fresh connection so that its first call is
// a first call (a new backend; the server's cache is warm from the seeding,
// as a running server's is):
//   device time    PgCapacityRepository::DeviceTime, 90 days hourly
//   held by model  PgChargebackRepository::Lines as the capacity series asks
//                  it, 90 days hourly by model (and by team for one team)
//   capacity ...   the API's whole query (CapacitySeriesQuery over the
//                  PostgreSQL repositories), without the HTTP transport
//   chargeback ... the API's whole query (ChargebackQuery, with the heavy
//                  reads' admission as fleetcap-api runs it)
//   spend change   the API's whole GetSpendChange (SpendChangeQuery: both
//                  windows' sums by workload, model and cluster, and the
//                  drivers split exactly; docs/insights.md)
// It prints first call, p50, p99 and max in milliseconds, and the size of
// each chargeback table with its indexes.
//
//   long_read_bench [--devices N] [--clusters C] [--days D] [--teams T] [--workloads-per-team W] [--calls K]
//                   [--seed S] [--uri URI [--seeded-now T]]

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/pg_pool.h"
#include "pqxx/pqxx"
#include "proto_time.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/fleet/capacity_series.h"
#include "services/api/heavy_reads.h"
#include "services/api/insights/spend_change_query.h"
#include "store/migrator.h"
#include "store/pg_capacity_repository.h"
#include "store/pg_chargeback_repository.h"
#include "tests/bench/bench_postgres.h"
#include "tests/support/build_paths.h"
#include "tests/support/seeded_chargeback_history.h"
#include "tests/support/seeded_hold_history.h"

namespace fleetcap::bench {
namespace {

struct LongReadSettings {
  testing::HoldHistoryShape devices;
  testing::ChargebackHistoryShape lines;
  int64_t calls = 100;
  int64_t seed = 1;
  // --uri: a server of one's own instead of a private one; with --seeded-now
  // (the hour its history ends at, Unix seconds), already seeded by an
  // earlier run, so that only the reads are timed.
  std::string uri;
  int64_t seeded_now = 0;
};

bool ParseLongReadFlags(int argc, char** argv, LongReadSettings* s) {
  int64_t days = 365, clusters = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--uri") == 0) {
      s->uri = argv[i + 1];
      continue;
    }
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--devices") == 0) target = &s->devices.devices;
    if (std::strcmp(argv[i], "--clusters") == 0) target = &clusters;
    if (std::strcmp(argv[i], "--days") == 0) target = &days;
    if (std::strcmp(argv[i], "--teams") == 0) target = &s->lines.teams;
    if (std::strcmp(argv[i], "--workloads-per-team") == 0) target = &s->lines.workloads_per_team;
    if (std::strcmp(argv[i], "--calls") == 0) target = &s->calls;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->seed;
    if (std::strcmp(argv[i], "--seeded-now") == 0) target = &s->seeded_now;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1) {
      std::fprintf(stderr, "long_read_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  s->devices.days = s->lines.days = days;
  s->devices.clusters = s->lines.clusters = clusters;
  s->devices.pods_per_day = 1;
  s->devices.hold_days = 1;
  // Each workload holds its share of 80% of the devices.
  s->lines.held_per_workload_hour =
      s->devices.devices * 3'600'000 * 8 / 10 / (s->lines.teams * s->lines.workloads_per_team);
  return argc % 2 == 1;
}

struct LongReadFigures {
  double first_ms = 0, p50_ms = 0, p99_ms = 0, max_ms = 0;
};

LongReadFigures SummarizeLongReads(std::vector<double> ms) {
  LongReadFigures f;
  f.first_ms = ms.front();
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(q * static_cast<double>(ms.size())))];
  };
  f.p50_ms = at(0.50);
  f.p99_ms = at(0.99);
  f.max_ms = ms.back();
  return f;
}

using WindowCall = std::function<absl::StatusOr<int64_t>(absl::Time end)>;

// Times `call(end)` over `ends`, on readers made by `make` over a fresh pool
// (so a fresh backend); false (having said why) on an error.
bool TimeWindows(const std::string& uri, const std::string& name, const std::vector<absl::Time>& ends,
                 const std::function<bool(PgPool*, const std::function<bool(const WindowCall&)>&)>& make) {
  auto pool = PgPool::Open(uri, 2);
  if (!pool.ok()) {
    std::cerr << pool.status() << "\n";
    return false;
  }
  return make(pool->get(), [&](const WindowCall& call) {
    std::vector<double> ms;
    int64_t size = 0;
    for (absl::Time end : ends) {
      const absl::Time began = absl::Now();
      auto got = call(end);
      if (!got.ok()) {
        std::cerr << name << ": " << got.status() << "\n";
        return false;
      }
      ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - began));
      size = *got;
    }
    const LongReadFigures f = SummarizeLongReads(std::move(ms));
    std::printf("%-40s first %8.2f  p50 %8.2f  p99 %8.2f  max %8.2f ms  (%zu calls, %lld rows/points)\n", name.c_str(),
                f.first_ms, f.p50_ms, f.p99_ms, f.max_ms, ends.size(), static_cast<long long>(size));
    return true;
  });
}

bool SeedLongReadHistory(const std::string& uri, const LongReadSettings& s, absl::Time now) {
  try {
    pqxx::connection conn(uri);
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return false;
    }
    const absl::Time seeding = absl::Now();
    {
      pqxx::work txn(conn);
      testing::SeedHoldHistory(txn, s.devices, now);
      txn.commit();
    }
    const absl::Time lines = absl::Now();
    {
      pqxx::work txn(conn);
      testing::SeedChargebackHistory(txn, s.lines, now);
      txn.commit();
    }
    const absl::Time analyzing = absl::Now();
    pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
    std::printf(
        "devices %lld over %lld clusters, %lld days; %lld teams x %lld workloads: %lld chargeback lines an hour;"
        " devices seeded in %.1f s, chargeback in %.1f s, VACUUM ANALYZE %.1f s\n",
        static_cast<long long>(s.devices.devices), static_cast<long long>(s.devices.clusters),
        static_cast<long long>(s.devices.days), static_cast<long long>(s.lines.teams),
        static_cast<long long>(s.lines.workloads_per_team), static_cast<long long>(s.lines.lines_an_hour()),
        absl::ToDoubleSeconds(lines - seeding), absl::ToDoubleSeconds(analyzing - lines),
        absl::ToDoubleSeconds(absl::Now() - analyzing));
    pqxx::nontransaction txn(conn);
    for (const auto& row :
         txn.exec("SELECT c.relname, c.reltuples::bigint, pg_table_size(c.oid), pg_indexes_size(c.oid) FROM pg_class c"
                  " WHERE c.relkind = 'r' AND (c.relname LIKE 'chargeback\\_%ly%' OR c.relname IN ('devices',"
                  " 'capacity_steps')) ORDER BY c.relname")) {
      std::printf("  %-28s %10lld rows  table %7.1f MiB  indexes %7.1f MiB\n", row[0].c_str(), row[1].as<long long>(),
                  row[2].as<double>() / 1048576, row[3].as<double>() / 1048576);
    }
  } catch (const std::exception& e) {
    std::cerr << "seeding: " << e.what() << "\n";
    return false;
  }
  return true;
}

v1::GetCapacitySeriesRequest CapacityRequest(absl::Time end, const std::string& group_by, v1::Resolution resolution,
                                             const std::string& team = "") {
  v1::GetCapacitySeriesRequest request;
  *request.mutable_start() = ToProtoTimestamp(end - absl::Hours(24 * 90));
  *request.mutable_end() = ToProtoTimestamp(end);
  request.set_resolution(resolution);
  request.add_group_by(group_by);
  request.set_team(team);
  request.set_layout(v1::COLUMNAR);
  return request;
}

int64_t PointsOfSeries(const v1::CapacitySeries& series) {
  int64_t points = 0;
  for (const v1::CapacitySeriesGroup& g : series.groups()) points += g.held_milli_seconds_size() + g.buckets_size();
  return points;
}

int LongReadMain(int argc, char** argv) {
  LongReadSettings s;
  if (!ParseLongReadFlags(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: long_read_bench [--devices N] [--clusters C] [--days D] [--teams T] [--workloads-per-team W]"
                 " [--calls K] [--seed S] [--uri URI [--seeded-now T]]\n");
    return 2;
  }
  std::unique_ptr<BenchPostgres> postgres;
  if (s.uri.empty()) {
    postgres = BenchPostgres::Start("longreadbench", fleetcap::testing::SourcePath("scripts/pg.sh"));
    if (postgres == nullptr) return 1;
  }
  const std::string uri = s.uri.empty() ? postgres->uri() : s.uri;
  const bool seeded = !s.uri.empty() && s.seeded_now > 0;
  const absl::Time now = seeded ? absl::FromUnixSeconds(s.seeded_now)
                                : absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 3600 * 3600);
  if (!seeded && !SeedLongReadHistory(uri, s, now)) return 1;
  std::printf("history ends at %lld (--seeded-now)\n", static_cast<long long>(absl::ToUnixSeconds(now)));

  // Windows ending at random hours of the last 30 days (or of the history, when shorter).
  std::mt19937_64 random(static_cast<uint64_t>(s.seed));
  std::uniform_int_distribution<int64_t> hour(0, std::min<int64_t>(24 * 30, 24 * s.devices.days) - 1);
  std::vector<absl::Time> ends;
  for (int64_t i = 0; i < s.calls; ++i) ends.push_back(now - absl::Hours(hour(random)));
  // The same on whole UTC months (12 whole months by month), and on whole days (the capacity series by day).
  std::vector<absl::Time> month_ends(ends.size(), store::MonthStart(now)), day_ends;
  for (absl::Time end : ends) day_ends.push_back(store::DayStart(end));

  using Make = std::function<bool(PgPool*, const std::function<bool(const WindowCall&)>&)>;
  auto device_time = [](PgPool* pool, const std::function<bool(const WindowCall&)>& time) {
    store::PgCapacityRepository capacity(pool);
    return time([&](absl::Time end) -> absl::StatusOr<int64_t> {
      store::CapacityFilter f;
      f.start = end - absl::Hours(24 * 90);
      f.end = end;
      f.width = absl::Hours(1);
      auto points = capacity.DeviceTime(f);
      if (!points.ok()) return points.status();
      return static_cast<int64_t>(points->size());
    });
  };
  auto held = [](bool by_team, std::string team) -> Make {
    return [by_team, team](PgPool* pool, const std::function<bool(const WindowCall&)>& time) {
      store::PgChargebackRepository lines(pool);
      return time([&](absl::Time end) -> absl::StatusOr<int64_t> {
        store::ChargebackFilter f;
        f.start = end - absl::Hours(24 * 90);
        f.end = end;
        f.device_time_only = true;
        if (!team.empty()) f.teams = {team};
        store::ChargebackGroupBy g;
        g.model = !by_team;
        g.team = by_team;
        auto sums = lines.Lines(f, g, store::ChargebackResolution::kHour);
        if (!sums.ok()) return sums.status();
        return static_cast<int64_t>(sums->size());
      });
    };
  };
  auto capacity = [](std::string group_by, v1::Resolution resolution, std::string team) -> Make {
    return [=](PgPool* pool, const std::function<bool(const WindowCall&)>& time) {
      store::PgCapacityRepository devices(pool);
      store::PgChargebackRepository lines(pool);
      api::ActivePolicyCache policies(nullptr);
      api::CapacitySeriesQuery query(&devices, &lines, &policies);
      api::Scope scope;
      scope.role = api::Role::kPlanner;
      scope.policy = std::make_shared<api::ActivePolicy>();
      return time([&](absl::Time end) -> absl::StatusOr<int64_t> {
        auto series = query.Run(scope, CapacityRequest(end, group_by, resolution, team));
        if (!series.ok()) return series.status();
        return PointsOfSeries(*series);
      });
    };
  };
  auto chargeback = [](absl::Duration window, v1::ChargebackResolution resolution) -> Make {
    return [=](PgPool* pool, const std::function<bool(const WindowCall&)>& time) {
      store::PgChargebackRepository lines(pool);
      api::ActivePolicyCache policies(nullptr);
      api::HeavyReads heavy_reads;
      api::ChargebackQuery query(&lines, &policies, &heavy_reads);
      api::Scope scope;
      scope.token_id = "bench";
      scope.role = api::Role::kPlanner;
      scope.policy = std::make_shared<api::ActivePolicy>();
      return time([&](absl::Time end) -> absl::StatusOr<int64_t> {
        v1::GetChargebackRequest request;
        *request.mutable_start() = ToProtoTimestamp(end - window);
        *request.mutable_end() = ToProtoTimestamp(end);
        request.add_group_by("team");
        request.set_resolution(resolution);
        auto report = query.Run(scope, request);
        if (!report.ok()) return report.status();
        return static_cast<int64_t>(report->lines_size());
      });
    };
  };
  auto spend_change = [](absl::Duration window) -> Make {
    return [=](PgPool* pool, const std::function<bool(const WindowCall&)>& time) {
      store::PgChargebackRepository lines(pool);
      api::ActivePolicyCache policies(nullptr);
      api::HeavyReads heavy_reads;
      api::SpendChangeQuery query(&lines, &policies, &heavy_reads);
      api::Scope scope;
      scope.token_id = "bench";
      scope.role = api::Role::kPlanner;
      scope.policy = std::make_shared<api::ActivePolicy>();
      return time([&](absl::Time end) -> absl::StatusOr<int64_t> {
        v1::GetSpendChangeRequest request;
        *request.mutable_start() = ToProtoTimestamp(end - window);
        *request.mutable_end() = ToProtoTimestamp(end);
        auto report = query.Run(scope, request);
        if (!report.ok()) return report.status();
        return static_cast<int64_t>(report->drivers_size());
      });
    };
  };
  const absl::Duration year = absl::Hours(24 * 365);
  const bool ok =
      TimeWindows(uri, "device time, 90 days hourly", ends, device_time) &&
      TimeWindows(uri, "held, 90 days hourly by model", ends, held(false, "")) &&
      TimeWindows(uri, "held, 90 days hourly by team, one team", ends, held(true, "t-7")) &&
      TimeWindows(uri, "capacity, 90 days hourly by model", ends, capacity("model", v1::HOUR, "")) &&
      TimeWindows(uri, "capacity, 90 days hourly, one team", ends, capacity("team", v1::HOUR, "t-7")) &&
      TimeWindows(uri, "capacity, 90 days daily by team", day_ends, capacity("team", v1::DAY, "")) &&
      TimeWindows(uri, "chargeback, 30 days by team", ends,
                  chargeback(absl::Hours(24 * 30), v1::CHARGEBACK_RESOLUTION_NONE)) &&
      TimeWindows(uri, "chargeback, 365 days by team, month", ends,
                  chargeback(year, v1::CHARGEBACK_RESOLUTION_MONTH)) &&
      TimeWindows(uri, "chargeback, 12 whole months by team, month", month_ends,
                  chargeback(store::MonthStart(now) - store::MonthStart(now - year + absl::Hours(24)),
                             v1::CHARGEBACK_RESOLUTION_MONTH)) &&
      TimeWindows(uri, "spend change, 30 days against the 30 before", ends, spend_change(absl::Hours(24 * 30)));
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::LongReadMain(argc, argv); }
