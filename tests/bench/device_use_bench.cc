// What the holds on each device used over a window, as the Assets view reads
// it for nodes and devices (ChargebackReadRepository::DevicesHeld, migration
// 0041; docs/fleet.md, "Assets"; docs/benchmarks.md): a private PostgreSQL
// (scripts/pg.sh, default settings), migrated and seeded in SQL with N
// devices (16 a node, over C clusters) held every hour of D days, their
// hourly rows and the daily rows the store rebuilds from them, then VACUUM
// ANALYZE. Timed K times each, over windows of 30 days ending at a random
// hour of the last day (so both ends are ragged), on a fresh connection so
// that its first call is a first call:
//   every device    DevicesHeld per device over the fleet (group_by=device)
//   every node      DevicesHeld per node over the fleet (group_by=node)
//   one cluster     DevicesHeld per node of one cluster
//   one node        DevicesHeld per device of one node
// and, as the baseline, the same sums (per device over the fleet) from the
// hourly rows alone, without the daily rollup. It prints first call, p50,
// p99 and max in milliseconds, and checks both ways give the same sums.
//
//   device_use_bench [--devices N] [--days D] [--clusters C] [--calls K] [--seed S]

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
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/migrator.h"
#include "store/pg_chargeback_repository.h"
#include "tests/bench/bench_postgres.h"
#include "tests/support/build_paths.h"

namespace fleetcap::bench {
namespace {

struct DeviceUseBenchSettings {
  int64_t devices = 2'000;
  int64_t days = 31;
  int64_t clusters = 4;
  int64_t calls = 20;
  int64_t seed = 1;
};

bool ParseDeviceUseFlags(int argc, char** argv, DeviceUseBenchSettings* s) {
  for (int i = 1; i + 1 < argc; i += 2) {
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--devices") == 0) target = &s->devices;
    if (std::strcmp(argv[i], "--days") == 0) target = &s->days;
    if (std::strcmp(argv[i], "--clusters") == 0) target = &s->clusters;
    if (std::strcmp(argv[i], "--calls") == 0) target = &s->calls;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->seed;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1) {
      std::fprintf(stderr, "device_use_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1 && s->days >= 31;
}

// Device d is device "GPU-d" of cluster "c(d mod C)", node "n(d / 16)";
// every fourth node is H100, the others A100. It is held a varying part of
// each hour and read for most of it.
constexpr const char* kSeedHourlySql = R"sql(
INSERT INTO chargeback_device_hourly (cluster, hour, device_id, model, node, held_milli_seconds,
                                      used_milli_seconds, observed_milli_seconds)
SELECT 'c' || (d % $3::integer), h, 'GPU-' || d, CASE WHEN (d / 16) % 4 = 0 THEN 'H100' ELSE 'A100' END,
       'n' || (d / 16), 600000 + (d * 7 + extract(epoch FROM h)::bigint / 3600) % 3000000,
       (d * 13 + extract(epoch FROM h)::bigint / 3600) % 600000, 600000
FROM generate_series(0, $1::integer - 1) d,
     generate_series($2::timestamptz, $2::timestamptz + ($4::integer * 24 - 1) * interval '1 hour',
                     interval '1 hour') h
ORDER BY h
)sql";

constexpr const char* kSeedDailySql = R"sql(
INSERT INTO chargeback_device_daily (cluster, day, device_id, model, node, held_milli_seconds,
                                     used_milli_seconds, observed_milli_seconds)
SELECT cluster, date_trunc('day', hour, 'UTC'), device_id, model, node, sum(held_milli_seconds),
       sum(used_milli_seconds), sum(observed_milli_seconds)
FROM chargeback_device_hourly GROUP BY 1, 2, 3, 4, 5 ORDER BY 2
)sql";

// The baseline: per device, from the hourly rows alone.
constexpr const char* kHourlyAloneSql = R"sql(
SELECT cluster COLLATE "C", model COLLATE "C", node COLLATE "C", device_id COLLATE "C",
       sum(held_milli_seconds)::bigint, sum(used_milli_seconds)::bigint, sum(observed_milli_seconds)::bigint
FROM chargeback_device_hourly WHERE hour >= $1::timestamptz AND hour < $2::timestamptz
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
)sql";

bool SeedDeviceUse(const std::string& uri, const DeviceUseBenchSettings& s, absl::Time first_day) {
  try {
    pqxx::connection conn(uri);
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return false;
    }
    const absl::Time seeding = absl::Now();
    pqxx::work txn(conn);
    txn.exec_params(kSeedHourlySql, s.devices, FormatRfc3339(first_day), s.clusters, s.days);
    txn.exec(kSeedDailySql);
    txn.commit();
    pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
    std::printf("%lld devices over %lld clusters, %lld days: %lld hourly rows, %lld daily; seeded in %.1f s\n",
                static_cast<long long>(s.devices), static_cast<long long>(s.clusters), static_cast<long long>(s.days),
                static_cast<long long>(s.devices * s.days * 24), static_cast<long long>(s.devices * s.days),
                absl::ToDoubleSeconds(absl::Now() - seeding));
    return true;
  } catch (const std::exception& e) {
    std::cerr << "seeding: " << e.what() << "\n";
    return false;
  }
}

using Read = std::function<size_t(absl::Time start, absl::Time end)>;

// Calls `read` `calls` times over 30-day windows ending at a random hour of
// the last day; prints first, p50, p99 and max in milliseconds.
void Time(const char* what, const Read& read, int64_t calls, absl::Time last_day, std::mt19937_64& rng) {
  std::vector<double> ms;
  size_t groups = 0;
  for (int64_t i = 0; i < calls; ++i) {
    const absl::Time end = last_day + absl::Hours(1 + static_cast<int64_t>(rng() % 23));
    const absl::Time start = end - absl::Hours(24 * 30);
    const absl::Time t0 = absl::Now();
    groups = read(start, end);
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - t0));
  }
  const double first = ms.front();
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))]; };
  std::printf("%-44s %8zu groups  first %9.1f  p50 %9.1f  p99 %9.1f  max %9.1f ms\n", what, groups, first, at(0.5),
              at(0.99), ms.back());
}

std::vector<store::DeviceUseSum> MustRead(const store::PgChargebackRepository& repo,
                                          const store::DeviceUseFilter& filter) {
  auto held = repo.DevicesHeld(filter);
  if (!held.ok()) {
    std::cerr << held.status() << "\n";
    std::exit(1);
  }
  return std::move(held->sums);
}

std::vector<store::DeviceUseSum> HourlyAlone(const std::string& uri, absl::Time start, absl::Time end) {
  pqxx::connection conn(uri);
  pqxx::nontransaction txn(conn);
  txn.exec("SET jit = off; SET max_parallel_workers_per_gather = 0");
  std::vector<store::DeviceUseSum> out;
  for (const auto& row : txn.exec_params(kHourlyAloneSql, FormatRfc3339(start), FormatRfc3339(end))) {
    out.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>(),
                   row[3].as<std::string>(), row[4].as<int64_t>(), row[5].as<int64_t>(), row[6].as<int64_t>()});
  }
  return out;
}

int Main(int argc, char** argv) {
  DeviceUseBenchSettings s;
  if (!ParseDeviceUseFlags(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: device_use_bench [--devices N] [--days D>=31] [--clusters C] [--calls K] [--seed S]\n");
    return 2;
  }
  auto pg = BenchPostgres::Start("deviceusebench", testing::SourcePath("scripts/pg.sh"));
  if (pg == nullptr) return 1;
  const absl::Time first_day = absl::FromUnixSeconds(1'764'547'200);  // 2025-12-01T00:00:00Z
  if (!SeedDeviceUse(pg->uri(), s, first_day)) return 1;
  const absl::Time last_day = first_day + absl::Hours(24 * (s.days - 1));
  std::mt19937_64 rng(static_cast<uint64_t>(s.seed));

  // The answer both ways, once, before timing: the same sums.
  {
    auto pool = PgPool::Open(pg->uri(), 1);
    if (!pool.ok()) return 1;
    store::PgChargebackRepository repo(pool->get());
    const absl::Time end = last_day + absl::Hours(7), start = end - absl::Hours(24 * 30);
    if (MustRead(repo, {start, end, "", "", "", true}) != HourlyAlone(pg->uri(), start, end)) {
      std::cerr << "device_use_bench: the daily rollup and the hourly rows disagree\n";
      return 1;
    }
  }
  const auto timed = [&](const char* what, const store::DeviceUseFilter& base) {
    auto pool = PgPool::Open(pg->uri(), 1);  // a fresh connection: its first call is a first call
    if (!pool.ok()) std::exit(1);
    store::PgChargebackRepository repo(pool->get());
    Time(
        what,
        [&](absl::Time start, absl::Time end) {
          store::DeviceUseFilter filter = base;
          filter.start = start;
          filter.end = end;
          return MustRead(repo, filter).size();
        },
        s.calls, last_day, rng);
  };
  timed("every device (daily rollup + ragged hours)", {{}, {}, "", "", "", true});
  timed("every node", {{}, {}, "", "", "", false});
  timed("one cluster's nodes", {{}, {}, "c0", "", "", false});
  timed("one node's devices", {{}, {}, "c0", "", "n0", true});
  Time(
      "baseline: every device from the hourly rows",
      [&](absl::Time start, absl::Time end) { return HourlyAlone(pg->uri(), start, end).size(); }, s.calls, last_day,
      rng);
  return 0;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::Main(argc, argv); }
