// The usage reads (GET /v1/usage) over a fleet's telemetry, and the size on
// disk of a year of history (docs/benchmarks.md, "Usage reads and the
// history's size on disk"): a private PostgreSQL (scripts/pg.sh, default
// settings), migrated, seeded in SQL with N devices over C clusters, D days
// of holds and pods (tests/support/seeded_hold_history.h), their minute
// telemetry for the last M days and their hourly rollups for the last H days
// (tests/support/seeded_usage_history.h), then VACUUM ANALYZE as autovacuum
// would leave it.
// Then each read is timed K times through PgUsageRepository::Buckets (what
// the API's UsageQuery runs), each series on a fresh connection so that its
// first call is a first call (a new backend; the server's cache is warm from
// the seeding, as a running server's is):
//   node/minute/day     one node (drawn at random), per minute, over a day
//                       ending at a random minute of the telemetry window
//   cluster/hour/30d    one cluster (drawn at random), per hour, the last 30 days
// Each read is timed as it was before migration 0034 as well, in the same run,
// marked "(before)": the one statement over the minutes that Buckets ran for
// every read (kUsageBucketsSelectSql). It prints the plans (EXPLAIN ANALYZE,
// BUFFERS) of the first call of each, checks the samples the node reads count
// against the seeded ones and the hours the cluster reads have, and prints
// first call, p50, p99 and max in milliseconds; then the hourly rollup's time
// per hour (PgUsageRollupRepository::RollUp over the last 6 hours of c0)
// without and with usage_cluster_hourly. Before the reads: each table's size
// with its indexes (pg_total_relation_size; usage_minute over all its
// partitions), each index's, and both per device-year.
//
//   usage_read_bench [--devices N] [--clusters C] [--days D] [--pods-per-day P] [--minute-days M]
//                    [--hourly-days H] [--calls K] [--seed S]

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
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
#include "store/pg_usage_repository.h"
#include "store/pg_usage_rollup_repository.h"
#include "store/pg_usage_sql.h"
#include "tests/bench/bench_postgres.h"
#include "tests/bench/call_latency.h"
#include "tests/support/build_paths.h"
#include "tests/support/seeded_hold_history.h"
#include "tests/support/seeded_usage_history.h"

namespace fleetcap::bench {
namespace {

struct UsageSettings {
  testing::HoldHistoryShape holds;
  testing::UsageHistoryShape usage;
  int64_t calls = 100;
  int64_t seed = 1;
};

bool ParseUsageFlags(int argc, char** argv, UsageSettings* s) {
  s->holds.devices = 240;
  for (int i = 1; i + 1 < argc; i += 2) {
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--devices") == 0) target = &s->holds.devices;
    if (std::strcmp(argv[i], "--clusters") == 0) target = &s->holds.clusters;
    if (std::strcmp(argv[i], "--days") == 0) target = &s->holds.days;
    if (std::strcmp(argv[i], "--pods-per-day") == 0) target = &s->holds.pods_per_day;
    if (std::strcmp(argv[i], "--minute-days") == 0) target = &s->usage.minute_days;
    if (std::strcmp(argv[i], "--hourly-days") == 0) target = &s->usage.hourly_days;
    if (std::strcmp(argv[i], "--calls") == 0) target = &s->calls;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->seed;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1) {
      std::fprintf(stderr, "usage_read_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  if (s->usage.hourly_days > s->holds.days || s->usage.minute_days > s->holds.days || s->usage.minute_days < 2) {
    std::fprintf(stderr, "usage_read_bench: --minute-days is at least 2; it and --hourly-days are at most --days\n");
    return false;
  }
  return argc % 2 == 1;
}

// One read of usage: the buckets of a filter, by a width.
using UsageRead = std::function<absl::StatusOr<std::vector<store::UsageBucket>>(const store::UsageFilter&)>;
// A series' reads, on a connection of their own (opened by the maker).
using UsageReadMaker = std::function<absl::StatusOr<UsageRead>(store::BucketWidth)>;

// Buckets as PgUsageRepository::Buckets answers them (what the API's UsageQuery runs).
UsageReadMaker ThroughRepository(const std::string& uri) {
  return [uri](store::BucketWidth width) -> absl::StatusOr<UsageRead> {
    auto pool = PgPool::Open(uri, 1);
    if (!pool.ok()) return pool.status();
    auto shared = std::shared_ptr<PgPool>(std::move(*pool));
    auto usage = std::make_shared<store::PgUsageRepository>(shared.get());
    return UsageRead([shared, usage, width](const store::UsageFilter& f) { return usage->Buckets(f, width); });
  };
}

// Buckets as the minutes answer them: the statement Buckets ran for every
// read before the hourly rollup of migration 0034 (the "before" series).
UsageReadMaker FromMinutes(const std::string& uri) {
  return [uri](store::BucketWidth width) -> absl::StatusOr<UsageRead> {
    auto conn = std::make_shared<pqxx::connection>(uri);
    const char* unit = width == store::BucketWidth::kMinute ? "minute"
                       : width == store::BucketWidth::kDay  ? "day"
                                                            : "hour";
    return UsageRead([conn, unit](const store::UsageFilter& f) -> absl::StatusOr<std::vector<store::UsageBucket>> {
      std::vector<store::UsageBucket> out;
      try {
        pqxx::nontransaction txn(*conn);
        for (const auto& row : txn.exec_params(
                 absl::StrCat(store::kUsageBucketsSelectSql, store::kUsageFilterWhereSql, store::kUsageBucketsGroupSql),
                 f.cluster, FormatRfc3339(f.start), FormatRfc3339(f.end), f.pods, f.device, f.node, f.model, f.pod,
                 f.namespace_, unit)) {
          store::UsageBucket b;
          b.start = absl::FromUnixMillis(row[0].as<int64_t>());
          if (!row[5].is_null()) b.samples = row[5].as<int64_t>();
          b.series = row[6].as<int64_t>();
          out.push_back(b);
        }
      } catch (const std::exception& e) {
        return absl::InternalError(e.what());
      }
      return out;
    });
  };
}

// Times each of `series`' reads over `filters`, each series on a fresh
// connection (so a fresh backend), the series interleaved call by call (so
// that the machine's load falls on each alike); false (having said why) on
// an error or when `check` refuses an answer.
bool TimeBuckets(const std::vector<std::pair<std::string, UsageReadMaker>>& series,
                 const std::vector<store::UsageFilter>& filters, store::BucketWidth width,
                 const std::function<bool(const store::UsageFilter&, const std::vector<store::UsageBucket>&)>& check) {
  std::vector<UsageRead> reads;
  for (const auto& [name, make] : series) {
    auto read = make(width);
    if (!read.ok()) {
      std::cerr << name << ": " << read.status() << "\n";
      return false;
    }
    reads.push_back(std::move(*read));
  }
  std::vector<std::vector<double>> ms(series.size());
  for (const store::UsageFilter& f : filters) {
    for (size_t i = 0; i < series.size(); ++i) {
      const absl::Time began = absl::Now();
      auto buckets = reads[i](f);
      ms[i].push_back(absl::ToDoubleMilliseconds(absl::Now() - began));
      if (!buckets.ok()) {
        std::cerr << series[i].first << ": " << buckets.status() << "\n";
        return false;
      }
      if (!check(f, *buckets)) return false;
    }
  }
  for (size_t i = 0; i < series.size(); ++i) {
    const CallLatency f = LatencyOf(std::move(ms[i]));
    std::printf("%-40s first %8.2f  p50 %8.2f  p99 %8.2f  max %8.2f ms  (%zu calls)\n", series[i].first.c_str(),
                f.first_ms, f.p50_ms, f.p99_ms, f.max_ms, filters.size());
  }
  std::fflush(stdout);
  return true;
}

// EXPLAIN (ANALYZE, BUFFERS) of `sql` with `filter`'s parameters (as kUsageFilterWhereSql numbers them) and `unit`.
void PrintPlan(pqxx::connection& conn, const std::string& title, const std::string& sql, const store::UsageFilter& f,
               const std::string& unit) {
  pqxx::nontransaction txn(conn);
  std::printf("-- %s\n", title.c_str());
  for (const auto& row :
       txn.exec_params(absl::StrCat("EXPLAIN (ANALYZE, BUFFERS) ", sql), f.cluster, FormatRfc3339(f.start),
                       FormatRfc3339(f.end), f.pods, f.device, f.node, f.model, f.pod, f.namespace_, unit)) {
    std::printf("   %s\n", row[0].c_str());
  }
}

// The hourly rollup's time per hour (PgUsageRollupRepository::RollUp) of the
// last `hours` hours of cluster c0, stale for usage_hourly alone (before
// migration 0034) and for it and usage_cluster_hourly.
bool TimeRollUp(const std::string& uri, absl::Time now, int hours) {
  auto pool = PgPool::Open(uri, 1);
  if (!pool.ok()) {
    std::cerr << pool.status() << "\n";
    return false;
  }
  store::PgUsageRollupRepository rollups(pool->get());
  pqxx::connection conn(uri);
  const absl::Time from = now - absl::Hours(hours);
  for (const bool cluster : {false, true}) {
    pqxx::work txn(conn);
    for (const char* table : {"usage_hour_changes", "usage_cluster_hour_changes"}) {
      if (!cluster && std::strcmp(table, "usage_cluster_hour_changes") == 0) continue;
      txn.exec(absl::StrCat("INSERT INTO ", table, " (cluster, hour) SELECT 'c0', h FROM generate_series('",
                            FormatRfc3339(from), "'::timestamptz, '", FormatRfc3339(now - absl::Hours(1)),
                            "'::timestamptz, interval '1 hour') h"));
    }
    txn.commit();
    const absl::Time began = absl::Now();
    if (auto st = rollups.RollUp("c0", from, now); !st.ok()) {
      std::cerr << st << "\n";
      return false;
    }
    std::printf("hourly rollup of c0, %s: %.1f ms an hour (%d hours)\n",
                cluster ? "usage_hourly and usage_cluster_hourly (after)" : "usage_hourly alone (before)",
                absl::ToDoubleMilliseconds(absl::Now() - began) / hours, hours);
  }
  return true;
}

// Each table's size with its indexes, each index's, and per device-year.
void PrintSizes(pqxx::connection& conn, const UsageSettings& s) {
  pqxx::nontransaction txn(conn);
  const double device_years = static_cast<double>(s.holds.devices);
  // What a table holds, in days of history: a year's worth is 365 / days of it.
  struct Table {
    const char* name;
    int64_t days;
  };
  const Table tables[] = {{"devices", s.holds.days},
                          {"nodes", s.holds.days},
                          {"pods", s.holds.days},
                          {"holds", s.holds.days},
                          {"usage_hourly", s.usage.hourly_days},
                          {"usage_cluster_hourly", s.usage.minute_days},
                          {"usage_minute", s.usage.minute_days}};
  std::printf("%-20s %12s %10s %10s %10s %14s\n", "table", "rows", "heap MiB", "index MiB", "total MiB",
              "per device-yr");
  double total_year = 0;
  for (const Table& t : tables) {
    // A partitioned table's size is its partitions'.
    const auto row = txn.exec_params(
        "SELECT (SELECT count(*) FROM " + std::string(t.name) +
            "), sum(pg_table_size(relid)), sum(pg_indexes_size(relid)), sum(pg_total_relation_size(relid))"
            " FROM (SELECT relid FROM pg_partition_tree($1::regclass) WHERE isleaf UNION SELECT $1::regclass) p",
        t.name)[0];
    const double total = row[3].as<double>(0);
    const double per_device_year = total / device_years * 365.0 / static_cast<double>(t.days);
    total_year += per_device_year;
    std::printf("%-20s %12lld %10.1f %10.1f %10.1f %11.1f KiB  (%lld days held)\n", t.name, row[0].as<long long>(),
                row[1].as<double>(0) / 1048576, row[2].as<double>(0) / 1048576, total / 1048576, per_device_year / 1024,
                static_cast<long long>(t.days));
    // Indexes of a partitioned table summed over its partitions' indexes.
    for (const auto& index : txn.exec_params(
             "SELECT coalesce(pg_partition_root(c.oid)::text, c.relname), sum(pg_relation_size(c.oid))"
             " FROM (SELECT relid FROM pg_partition_tree($1::regclass) WHERE isleaf UNION SELECT $1::regclass) p"
             " JOIN pg_index i ON i.indrelid = p.relid"
             " JOIN pg_class c ON c.oid = i.indexrelid"
             " GROUP BY 1 ORDER BY 1",
             t.name)) {
      std::printf("  index %-36s %10.1f MiB %11.1f KiB a device-year\n", index[0].c_str(),
                  index[1].as<double>() / 1048576,
                  index[1].as<double>() / device_years * 365.0 / static_cast<double>(t.days) / 1024);
    }
  }
  std::printf("a device-year of all of the above: %.1f KiB (usage_minute's %lld days scaled to a year)\n",
              total_year / 1024, static_cast<long long>(s.usage.minute_days));
}

int UsageMain(int argc, char** argv) {
  UsageSettings s;
  if (!ParseUsageFlags(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: usage_read_bench [--devices N] [--clusters C] [--days D] [--pods-per-day P]"
                 " [--minute-days M] [--hourly-days H] [--calls K] [--seed S]\n");
    return 2;
  }
  const std::unique_ptr<BenchPostgres> postgres =
      BenchPostgres::Start("usagebench", fleetcap::testing::SourcePath("scripts/pg.sh"));
  if (postgres == nullptr) return 1;
  const std::string& uri = postgres->uri();
  const absl::Time now = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 3600 * 3600);

  try {
    pqxx::connection conn(uri);
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return 1;
    }
    const absl::Time seeding = absl::Now();
    {
      pqxx::work txn(conn);
      testing::SeedHoldHistory(txn, s.holds, now);
      txn.commit();
    }
    const absl::Time seeding_usage = absl::Now();
    {
      pqxx::work txn(conn);
      testing::SeedUsageHistory(txn, s.holds, s.usage, now);
      txn.commit();
    }
    const absl::Time analyzing = absl::Now();
    pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
    std::printf(
        "devices %lld, clusters %lld, %lld days of holds (%lld pods a device-day), %lld days of minutes, %lld days"
        " of hourly rollups; holds seeded in %.1f s, usage in %.1f s, VACUUM ANALYZE %.1f s\n",
        static_cast<long long>(s.holds.devices), static_cast<long long>(s.holds.clusters),
        static_cast<long long>(s.holds.days), static_cast<long long>(s.holds.pods_per_day),
        static_cast<long long>(s.usage.minute_days), static_cast<long long>(s.usage.hourly_days),
        absl::ToDoubleSeconds(seeding_usage - seeding), absl::ToDoubleSeconds(analyzing - seeding_usage),
        absl::ToDoubleSeconds(absl::Now() - analyzing));
    PrintSizes(conn, s);
  } catch (const std::exception& e) {
    std::cerr << "seeding: " << e.what() << "\n";
    return 1;
  }

  std::mt19937_64 random(static_cast<uint64_t>(s.seed));
  const int64_t nodes = (s.holds.devices + 7) / 8;
  std::uniform_int_distribution<int64_t> node_of(0, nodes - 1), cluster_of(0, s.holds.clusters - 1);
  // A day ending at a minute of the telemetry window's last M - 1 days, so wholly inside it.
  std::uniform_int_distribution<int64_t> end_minute(0, (s.usage.minute_days - 1) * 1440 - 1);
  std::vector<store::UsageFilter> node_days, cluster_months;
  for (int64_t i = 0; i < s.calls; ++i) {
    store::UsageFilter f;
    const int64_t node = node_of(random);
    f.cluster = absl::StrCat("c", node % s.holds.clusters);
    f.node = absl::StrCat("n-", node);
    f.end = now - absl::Minutes(end_minute(random));
    f.start = f.end - absl::Hours(24);
    node_days.push_back(f);
    store::UsageFilter c;
    c.cluster = absl::StrCat("c", cluster_of(random));
    c.start = now - absl::Hours(24 * 30);
    c.end = now;
    cluster_months.push_back(c);
  }
  // The check: a node's day counts every minute of its devices (8 but on the last node).
  auto node_samples = [&](const store::UsageFilter& f, const std::vector<store::UsageBucket>& buckets) {
    int64_t node = 0;
    absl::SimpleAtoi(f.node.substr(2), &node);
    const int64_t devices = std::min<int64_t>(8, s.holds.devices - node * 8);
    int64_t samples = 0;
    for (const auto& b : buckets) samples += b.samples.value_or(0);
    const int64_t expected = devices * 1440 * testing::UsageHistoryShape::kSamplesPerRow;
    if (buckets.size() != 1440 || samples != expected) {
      std::cerr << "node " << f.node << ": " << buckets.size() << " minutes, " << samples << " samples; expected 1440, "
                << expected << "\n";
      return false;
    }
    return true;
  };
  // Every hour of the minutes seeded, each with the cluster's devices.
  auto cluster_hours = [&](const store::UsageFilter& f, const std::vector<store::UsageBucket>& buckets) {
    const size_t hours = static_cast<size_t>(24 * s.usage.minute_days);
    if (buckets.size() != std::min<size_t>(hours, 24 * 30)) {
      std::cerr << "cluster " << f.cluster << ": " << buckets.size() << " hours; expected " << hours << "\n";
      return false;
    }
    return true;
  };
  try {
    pqxx::connection conn(uri);
    const std::string before =
        absl::StrCat(store::kUsageBucketsSelectSql, store::kUsageFilterWhereSql, store::kUsageBucketsGroupSql);
    PrintPlan(conn, "node, per minute, a day (before)", before, node_days.front(), "minute");
    PrintPlan(conn, "node, per minute, a day",
              absl::StrCat(store::kUsageBucketsBinnedSelectSql, store::kUsageFilterWhereSql,
                           store::kUsageBucketsBinnedGroupSql),
              node_days.front(), "1 minute");
    store::UsageFilter c = cluster_months.front();
    PrintPlan(conn, "cluster, per hour, 30 days (before)", before, c, "hour");
    pqxx::nontransaction txn(conn);
    const store::UsageRolledHours parts = store::UsageRolledHoursOf(c.start, c.end, {});
    std::printf("-- cluster, per hour, 30 days\n");
    for (const auto& row : txn.exec_params(
             absl::StrCat("EXPLAIN (ANALYZE, BUFFERS) ", store::UsageRolledHoursSql(parts)), c.cluster, c.pods, c.model,
             c.namespace_, FormatRfc3339(parts.from), FormatRfc3339(parts.to), parts.stale)) {
      std::printf("   %s\n", row[0].c_str());
    }
  } catch (const std::exception& e) {
    std::cerr << "plans: " << e.what() << "\n";
    return 1;
  }

  const UsageReadMaker after = ThroughRepository(uri), before = FromMinutes(uri);
  const bool ok = TimeBuckets({{"node, per minute, a day (before)", before}, {"node, per minute, a day", after}},
                              node_days, store::BucketWidth::kMinute, node_samples) &&
                  TimeBuckets({{"cluster, per hour, 30 days (before)", before}, {"cluster, per hour, 30 days", after}},
                              cluster_months, store::BucketWidth::kHour, cluster_hours) &&
                  TimeRollUp(uri, now, 6);
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::UsageMain(argc, argv); }
