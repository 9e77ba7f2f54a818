// The attribution engine against the same attribution written as one SQL
// query (tests/sql/request_attribution.sql), side by side on the synthetic
// fleet of synthetic_fleet.h in the same PostgreSQL (docs/benchmarks.md):
// the fleet is loaded into the inventory tables by COPY, then
//   SQL:    the query over the whole window, request basis, idle shared per
//           cluster, in one backend (no parallel workers): wall time, and
//           the backend's CPU time from /proc (PostgreSQL runs on this
//           machine); the server counts and sums the lines;
//   engine: in a process of its own (so its peak RSS is its own), the facts
//           of each cluster read back through PgAttributionFactsRepository
//           and `attribution::Attribute` over the whole window (wall time of
//           read + compute, its CPU time, peak RSS).
// Both print their line count and total, which must agree.
//
//   attribution_sql_bench [--devices N] [--pods N] [--days N] [--seed N] [--work-mem-mb N]
//   attribution_sql_bench --engine URI DAYS      (the engine side, started by the bench)

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/pg_pool.h"
#include "optimizer/attribution/attribution_engine.h"
#include "pqxx/pqxx"
#include "store/migrator.h"
#include "store/pg_attribution_facts_repository.h"
#include "tests/bench/bench_postgres.h"
#include "tests/bench/synthetic_fleet.h"
#include "tests/sql/sql_baseline.h"
#include "tests/support/build_paths.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"

namespace fleetcap::bench {
namespace {

struct Settings {
  FleetShape shape;
  int64_t work_mem_mb = 256;
};

bool Parse(int argc, char** argv, Settings* s) {
  for (int i = 1; i + 1 < argc; i += 2) {
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--devices") == 0) target = &s->shape.devices;
    if (std::strcmp(argv[i], "--pods") == 0) target = &s->shape.pods;
    if (std::strcmp(argv[i], "--days") == 0) target = &s->shape.days;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->shape.seed;
    if (std::strcmp(argv[i], "--work-mem-mb") == 0) target = &s->work_mem_mb;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1) {
      std::fprintf(stderr, "attribution_sql_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1;
}

// CPU seconds (user + system) of this process.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// CPU seconds (user + system) of a process of this machine (the PostgreSQL
// backend serving the bench), from /proc/PID/stat; -1 if unreadable.
double ProcessCpuSeconds(int64_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string stat;
  std::getline(in, stat);                // one line
  const size_t close = stat.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return -1;
  std::vector<std::string> fields = absl::StrSplit(stat.substr(close + 2), ' ');
  double utime = 0, stime = 0;  // fields 14 and 15 of the whole line
  if (fields.size() < 13 || !absl::SimpleAtod(fields[11], &utime) || !absl::SimpleAtod(fields[12], &stime)) return -1;
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double PeakRssMib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// The engine side: read every cluster's facts back from PostgreSQL, attribute.
// Prints one line: "engine <read s> <compute s> <lines> <total micro> <peak RSS MiB> <CPU s>".
int Engine(const std::string& uri, int64_t days) {
  const absl::Time start = SyntheticFleetStart(), end = start + absl::Hours(24 * days);
  auto pool = PgPool::Open(uri, 1);
  if (!pool.ok()) {
    std::cerr << "engine: " << pool.status() << "\n";
    return 1;
  }
  const absl::Time began = absl::Now();
  attribution::AttributionInput input;
  input.start = start;
  input.end = end;
  input.prices = SyntheticPrices();
  input.options.basis = "request";
  input.options.idle = "share";
  input.options.idle_scope = "cluster";
  std::vector<std::string> clusters;
  try {
    pqxx::connection conn(uri);
    pqxx::nontransaction txn(conn);
    for (const auto& row : txn.exec("SELECT cluster FROM clusters ORDER BY cluster")) {
      clusters.push_back(row[0].as<std::string>());
    }
  } catch (const std::exception& e) {
    std::cerr << "engine: listing clusters: " << e.what() << "\n";
    return 1;
  }
  store::PgAttributionFactsRepository repo(pool->get());
  for (const std::string& c : clusters) {
    auto facts = repo.Facts(c, start, end);
    if (!facts.ok()) {
      std::cerr << "engine: " << facts.status() << "\n";
      return 1;
    }
    for (auto& d : facts->devices) input.devices.push_back({c, d.node, d.device_id, d.model, d.from, d.to});
    for (auto& h : facts->holds) {
      input.holds.push_back({c, std::move(h.pod_uid), std::move(h.namespace_name), std::move(h.team_label),
                             std::move(h.workload), std::move(h.device_id), h.milli, h.from, h.to});
    }
  }
  const absl::Time read = absl::Now();
  int64_t lines = 0;
  auto report = attribution::Attribute(input, SyntheticTeams(), [&](attribution::HourLines&& hour) {
    lines += static_cast<int64_t>(hour.lines.size());
  });
  const absl::Time done = absl::Now();
  if (!report.ok()) {
    std::cerr << "engine: " << report.status() << "\n";
    return 1;
  }
  std::printf("engine %.2f %.2f %lld %lld %.0f %.2f\n", absl::ToDoubleSeconds(read - began),
              absl::ToDoubleSeconds(done - read), static_cast<long long>(lines),
              static_cast<long long>(report->total_cost_micro), PeakRssMib(), CpuSeconds());
  return 0;
}

int Main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--engine") == 0) {
    int64_t days = 0;
    if (!absl::SimpleAtoi(argv[3], &days) || days < 1) return 2;
    return Engine(argv[2], days);
  }
  Settings s;
  if (!Parse(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: attribution_sql_bench [--devices N] [--pods N] [--days N] [--seed N] [--work-mem-mb N]\n");
    return 2;
  }

  const std::unique_ptr<BenchPostgres> postgres =
      BenchPostgres::Start("sqlbench", fleetcap::testing::SourcePath("scripts/pg.sh"));
  if (postgres == nullptr) return 1;
  const std::string& uri = postgres->uri();

  const absl::Time start = SyntheticFleetStart(), end = start + absl::Hours(24 * s.shape.days);
  try {
    pqxx::connection conn(uri);
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return 1;
    }
    {
      const absl::Time made = absl::Now();
      const attribution::AttributionInput fleet = SyntheticFleet(s.shape);
      const absl::Time loading = absl::Now();
      pqxx::work txn(conn);
      if (auto st = sql_baseline::LoadFacts(txn, fleet); !st.ok()) {
        std::cerr << st << "\n";
        return 1;
      }
      txn.commit();
      pqxx::nontransaction(conn).exec("ANALYZE");
      std::printf("devices %lld, pods %lld, days %lld: fleet made in %.1f s, loaded (COPY + ANALYZE) in %.1f s\n",
                  static_cast<long long>(s.shape.devices), static_cast<long long>(s.shape.pods),
                  static_cast<long long>(s.shape.days), absl::ToDoubleSeconds(loading - made),
                  absl::ToDoubleSeconds(absl::Now() - loading));
    }
    sql_baseline::NamespaceTeams teams;
    for (const auto& row : pqxx::nontransaction(conn).exec("SELECT DISTINCT cluster, namespace FROM pods")) {
      const std::string ns = row[1].as<std::string>();  // ns-K-J belongs to t-K
      teams[{row[0].as<std::string>(), ns}] = absl::StrCat("t-", ns.substr(3, ns.find('-', 3) - 3));
    }
    {
      pqxx::work txn(conn);
      if (auto st = sql_baseline::LoadPricesAndTeams(txn, SyntheticPrices(), teams); !st.ok()) {
        std::cerr << st << "\n";
        return 1;
      }
      txn.commit();
    }
    pqxx::work txn(conn);
    txn.exec(absl::StrCat("SET LOCAL work_mem = '", s.work_mem_mb, "MB'"));
    // One process does the query, so that its CPU time is all in the backend's.
    txn.exec("SET LOCAL max_parallel_workers_per_gather = 0");
    const int64_t backend = txn.exec1("SELECT pg_backend_pid()")[0].as<int64_t>();
    const double backend_cpu = ProcessCpuSeconds(backend);
    const absl::Time began = absl::Now();
    auto sql = sql_baseline::CountRequestAttribution(txn, start, end, "share");
    const absl::Duration sql_wall = absl::Now() - began;
    const double sql_cpu = ProcessCpuSeconds(backend) - backend_cpu;
    if (!sql.ok()) {
      std::cerr << sql.status() << "\n";
      return 1;
    }
    txn.commit();

    auto engine = testing::Run({"/proc/self/exe", "--engine", uri, absl::StrCat(s.shape.days)}, absl::Hours(6));
    std::vector<std::string> e = absl::StrSplit(engine.out.substr(0, engine.out.find('\n')), ' ');
    double read_s = 0, compute_s = 0, rss = 0, engine_cpu = 0;
    int64_t engine_lines = 0, engine_total = 0;
    if (engine.exit_code != 0 || e.size() != 7 || e[0] != "engine" || !absl::SimpleAtod(e[1], &read_s) ||
        !absl::SimpleAtod(e[2], &compute_s) || !absl::SimpleAtoi(e[3], &engine_lines) ||
        !absl::SimpleAtoi(e[4], &engine_total) || !absl::SimpleAtod(e[5], &rss) ||
        !absl::SimpleAtod(e[6], &engine_cpu)) {
      std::cerr << "engine side failed: " << engine.out << engine.err << "\n";
      return 1;
    }
    const double sql_s = absl::ToDoubleSeconds(sql_wall);
    std::printf("%-8s %10s %10s %12s %18s %14s\n", "", "wall s", "CPU s", "lines", "total micro", "peak RSS MiB");
    std::printf("%-8s %10.2f %10.2f %12lld %18lld %14s\n", "SQL", sql_s, sql_cpu, static_cast<long long>(sql->lines),
                static_cast<long long>(sql->total_cost_micro), "(server)");
    std::printf("%-8s %10.2f %10.2f %12lld %18lld %14.0f   (wall: read %.2f s + compute %.2f s)\n", "engine",
                read_s + compute_s, engine_cpu, static_cast<long long>(engine_lines),
                static_cast<long long>(engine_total), rss, read_s, compute_s);
    std::printf("engine is %.1fx faster than the SQL in wall time, %.1fx in CPU (work_mem %lld MB)\n",
                sql_s / (read_s + compute_s), sql_cpu / engine_cpu, static_cast<long long>(s.work_mem_mb));
    if (sql->lines != engine_lines || sql->total_cost_micro != engine_total) {
      std::cerr << "the SQL and the engine disagree on the lines or their total\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "attribution_sql_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::Main(argc, argv); }
