// The chargeback read path at fleet scale (docs/benchmarks.md): a private
// PostgreSQL holding DAYS days of hourly chargeback lines of the synthetic
// fleet's shape (4 clusters c0..c3, 6 models, 20 teams t-K owning ns-K-0 ..
// ns-K-9, the workloads Job/job-N of 1M pods, plus one idle line per cluster
// and model), the real fleetcap-api over it, and CLIENTS threads issuing
// GET /v1/chargeback for SECONDS seconds per query; prints requests,
// p50/p90/p99/max latency and errors of each.
//
// --burst N then asks the heaviest answer there is, N at once: the whole
// window hourly, by team and model (tens of MB of JSON each), once from one
// token and once from N tokens, while one client asks a cheap question (one
// day by team) back to back. It prints how the heavy requests were answered
// (200, 429, 503) at first and, each client retrying as Retry-After says, in
// the end, the cheap one's p50/p99, and the API's resident memory at its
// highest during the burst and 5 s after it.
//
// The lines are generated in the database (INSERT ... SELECT over
// generate_series), LINES per hour, each key's figures made up; the daily
// and monthly rollups are then built by the same GROUP BY that
// ChargebackRepository::ReplaceHours runs, so they equal the sum of their
// hours as the writer keeps them. The default, 64,000 lines an hour over 30
// days, is the 46 million hourly lines the engine writes for 100,000 devices
// and 1M pods (tests/bench/synthetic_fleet.h).
//
//   chargeback_http_bench [--lines N] [--days N] [--clients N] [--seconds N] [--burst N] [--db URI]
//                         [--api PATH]
//
// --api: another fleetcap-api binary (an earlier build's) for a baseline.
//
// --db: a database of your own instead of a private one, filled only when
// it holds no chargeback line yet and left as it is afterwards, so that the
// loading (minutes at full scale) is paid once and the HTTP runs can be
// repeated on a quiet machine.

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "common/time_util.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "pqxx/pqxx"
#include "store/migrator.h"
#include "tests/bench/bench_postgres.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"
#include "tests/support/tokens.h"

namespace fleetcap::bench {
namespace {

// 2026-01-01T00:00:00Z, the synthetic fleet's start.
const absl::Time kStart = absl::FromUnixSeconds(1767225600);

struct Settings {
  int64_t lines = 64000;  // workload lines an hour
  int64_t days = 30;
  int64_t clients = 8;
  int64_t seconds = 10;
  int64_t burst = 0;                             // 0: no burst
  std::string db;                                // empty: a private PostgreSQL
  std::string api = fleetcap::testing::kApiBin;  // another build's, for a baseline
};

bool Parse(int argc, char** argv, Settings* s) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--db") == 0) {
      s->db = argv[i + 1];
      continue;
    }
    if (std::strcmp(argv[i], "--api") == 0) {
      s->api = argv[i + 1];
      continue;
    }
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--lines") == 0) target = &s->lines;
    if (std::strcmp(argv[i], "--days") == 0) target = &s->days;
    if (std::strcmp(argv[i], "--clients") == 0) target = &s->clients;
    if (std::strcmp(argv[i], "--seconds") == 0) target = &s->seconds;
    if (std::strcmp(argv[i], "--burst") == 0) target = &s->burst;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 0) {
      std::fprintf(stderr, "chargeback_http_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1;
}

// Teams t-0..t-3 at the top, t-K (K >= 4) under t-(K % 4): the token of
// team:t-1 reads the subtree t-1, t-5, t-9, t-13, t-17.
std::string Policy() {
  std::string doc = "version: 1\ncurrency: USD\nteams:\n";
  for (int k = 0; k < 20; ++k) {
    absl::StrAppend(&doc, "  - name: t-", k, "\n");
    if (k >= 4) absl::StrAppend(&doc, "    parent: t-", k % 4, "\n");
  }
  absl::StrAppend(&doc, "namespaces:\n");
  for (int k = 0; k < 20; ++k) {
    for (int j = 0; j < 10; ++j) absl::StrAppend(&doc, "  - namespace: ns-", k, "-", j, "\n    team: t-", k, "\n");
  }
  return doc;
}

// Generates the hourly lines of day `day`, LINES workload lines an hour.
// Line k of a day is workload Job/job-((k + day * LINES) mod 250,000): the
// workloads drift from day to day, as pods come and go.
void LoadDay(pqxx::connection& conn, const Settings& s, int64_t day) {
  pqxx::work txn(conn);
  const std::string day_start = FormatRfc3339(kStart + absl::Hours(24 * day));
  txn.exec_params(
      "INSERT INTO chargeback_hourly (cluster, hour, team, namespace, workload, model, line_kind,"
      " held_milli_seconds, used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,"
      " total_cost_micro, no_telemetry)"
      " SELECT 'c' || (k % 4), $1::timestamptz + h * interval '1 hour', 't-' || (k % 20),"
      " 'ns-' || (k % 20) || '-' || ((k / 20) % 10), 'Job/job-' || ((k + $2::bigint * $3::bigint) % 250000),"
      " (ARRAY['V100M16','V100M32','P100','T4','A10','G2'])[1 + (k / 4) % 6], 'workload',"
      " 1000 * (1 + (k + h) % 3600), 500 * (1 + (k + h) % 3600), 700 * (1 + (k + h) % 3600),"
      " 11 * (k % 97), 0, 700 * (1 + (k + h) % 3600) + 11 * (k % 97), (k + h) % 50 = 0"
      " FROM generate_series(0, 23) AS h, generate_series(0, $3::bigint - 1) AS k",
      day_start, day, s.lines);
  txn.exec_params(
      "INSERT INTO chargeback_hourly (cluster, hour, team, namespace, workload, model, line_kind,"
      " held_milli_seconds, used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,"
      " total_cost_micro, no_telemetry)"
      " SELECT 'c' || c, $1::timestamptz + h * interval '1 hour', 'idle', '', '', m, 'idle', 0, 0, 0,"
      " 1000000 + h, 0, 1000000 + h, false FROM generate_series(0, 23) AS h, generate_series(0, 3) AS c,"
      " unnest(ARRAY['V100M16','V100M32','P100','T4','A10','G2']) AS m",
      day_start);
  txn.commit();
}

// The rollups of every cluster, by the statements ReplaceHours runs, in the
// order it writes them (a cluster's hours in time order).
void BuildRollups(pqxx::connection& conn) {
  pqxx::work txn(conn);
  const char* sums =
      "held_milli_seconds, used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro, "
      "total_cost_micro";
  const char* summed =
      "sum(held_milli_seconds), sum(used_milli_seconds), sum(direct_cost_micro), sum(idle_cost_micro),"
      " sum(shared_cost_micro), sum(total_cost_micro)";
  for (const auto& [to, period, from, from_time] :
       {std::tuple{"chargeback_daily", "day", "chargeback_hourly", "hour"},
        std::tuple{"chargeback_monthly", "month", "chargeback_daily", "day"}}) {
    txn.exec(absl::StrCat("INSERT INTO ", to, " (cluster, ", period, ", team, namespace, workload, model, line_kind, ",
                          sums, ", no_telemetry) SELECT cluster, date_trunc('", period, "', ", from_time,
                          ", 'UTC'), team, namespace, workload, model, line_kind, ", summed, ", bool_or(no_telemetry)",
                          " FROM ", from, " GROUP BY 1, 2, 3, 4, 5, 6, 7"));
  }
  txn.exec(absl::StrCat("INSERT INTO chargeback_hourly_by_team (cluster, hour, team, model, line_kind, ", sums,
                        ", no_telemetry) SELECT cluster, hour, team, model, line_kind, ", summed,
                        ", bool_or(no_telemetry) FROM chargeback_hourly GROUP BY cluster, hour, team, model, line_kind"
                        " ORDER BY cluster, hour"));
  txn.exec(absl::StrCat("INSERT INTO chargeback_daily_by_team (cluster, day, team, model, line_kind, ", sums,
                        ", no_telemetry) SELECT cluster, date_trunc('day', hour, 'UTC'), team, model, line_kind, ",
                        summed,
                        ", bool_or(no_telemetry) FROM chargeback_hourly_by_team GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2"));
  txn.commit();
}

// The reads Lines made before the team rollups, straight in SQL on the same
// data: before chargeback_daily_by_team (0014), group by team over every
// workload's daily row for whole days, over every hourly line otherwise;
// before chargeback_hourly_by_team (0015), a window not on day boundaries
// summed the team rollup's whole days and every workload's line of the
// ragged hours. Best of three, in ms.
void MeasureFormerReads(const std::string& uri, const std::string& start, const std::string& end,
                        const std::string& ragged_start, const std::string& ragged_end, const std::string& days_start,
                        const std::string& days_end) {
  pqxx::connection conn(uri);
  auto best = [&](const std::string& sql) {
    double ms = 1e18;
    for (int i = 0; i < 3; ++i) {
      const absl::Time began = absl::Now();
      pqxx::nontransaction(conn).exec(sql);
      ms = std::min(ms, absl::ToDoubleMilliseconds(absl::Now() - began));
    }
    return ms;
  };
  const char* summed =
      "sum(held_milli_seconds), sum(used_milli_seconds), sum(direct_cost_micro), sum(idle_cost_micro),"
      " sum(shared_cost_micro), sum(total_cost_micro), bool_or(no_telemetry)";
  const double daily = best(absl::StrCat("SELECT team, ", summed, " FROM chargeback_daily WHERE day >= '", start,
                                         "' AND day < '", end, "' GROUP BY team"));
  const double hourly = best(absl::StrCat("SELECT team, ", summed, " FROM chargeback_hourly WHERE hour >= '",
                                          ragged_start, "' AND hour < '", ragged_end, "' GROUP BY team"));
  const char* columns =
      "team, held_milli_seconds, used_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro, "
      "total_cost_micro, no_telemetry";
  const double ragged_ends =
      best(absl::StrCat("SELECT team, ", summed, " FROM (SELECT ", columns, " FROM chargeback_hourly WHERE (hour >= '",
                        ragged_start, "' AND hour < '", days_start, "') OR (hour >= '", days_end, "' AND hour < '",
                        ragged_end, "') UNION ALL SELECT ", columns, " FROM chargeback_daily_by_team WHERE day >= '",
                        days_start, "' AND day < '", days_end, "') AS lines GROUP BY team"));
  std::printf(
      "former store reads, one client, best of 3: by team from chargeback_daily %.1f ms, "
      "not whole days from chargeback_hourly %.1f ms, "
      "not whole days from chargeback_daily_by_team and chargeback_hourly's ragged hours %.1f ms\n",
      daily, hourly, ragged_ends);
}

struct Query {
  std::string name;
  std::string path;  // after /v1/chargeback?
  std::string token;
  std::string total;  // the answer's totalCostMicro, when known
};

// CLIENTS threads issuing `q` back to back for SECONDS seconds.
// Returns the number of failed requests; `body` gets one answer.
int64_t Measure(const testing::ApiProcess& api, const Query& q, const Settings& s, std::string* body) {
  const std::string url = absl::StrCat(api.http_base(), "/v1/chargeback?", q.path);
  std::vector<std::vector<double>> millis(static_cast<size_t>(s.clients));
  std::atomic<int64_t> errors{0};
  std::string first_error;
  std::atomic<bool> noted{false};
  size_t body_bytes = 0;
  const absl::Time until = absl::Now() + absl::Seconds(s.seconds);
  std::vector<std::thread> threads;
  for (int64_t c = 0; c < s.clients; ++c) {
    threads.emplace_back([&, c] {
      while (absl::Now() < until) {
        const absl::Time began = absl::Now();
        auto r = testing::HttpGet(url, q.token);
        const double ms = absl::ToDoubleMilliseconds(absl::Now() - began);
        if (!r.ok() || r->status != 200) {
          ++errors;
          if (!noted.exchange(true)) {
            first_error =
                r.ok() ? absl::StrCat("HTTP ", r->status, ": ", r->body.substr(0, 200)) : r.status().ToString();
          }
          continue;
        }
        if (c == 0) {
          body_bytes = r->body.size();
          *body = r->body;
        }
        millis[static_cast<size_t>(c)].push_back(ms);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::vector<double> all;
  for (const auto& m : millis) all.insert(all.end(), m.begin(), m.end());
  std::sort(all.begin(), all.end());
  auto at = [&](double p) {
    if (all.empty()) return 0.0;
    return all[std::min(all.size() - 1, static_cast<size_t>(p * static_cast<double>(all.size())))];
  };
  std::printf("%-34s %8zu %8.1f %8.1f %8.1f %8.1f %7lld %9zu\n", q.name.c_str(), all.size(), at(0.50), at(0.90),
              at(0.99), all.empty() ? 0.0 : all.back(), static_cast<long long>(errors.load()), body_bytes);
  if (!first_error.empty()) std::printf("  first error: %s\n", first_error.c_str());
  std::fflush(stdout);
  return errors.load() + (all.empty() ? 1 : 0);
}

// The resident set of process `pid` in MiB, from /proc (0 if unreadable).
int64_t ResidentMiB(pid_t pid) {
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(status, line)) {
    int64_t kib = 0;
    if (line.rfind("VmRSS:", 0) == 0 &&
        absl::SimpleAtoi(absl::StripAsciiWhitespace(line.substr(6, line.size() - 9)), &kib)) {
      return kib / 1024;
    }
  }
  return 0;
}

// N heavy requests at once (one per thread, each with tokens[i % tokens.size()])
// while one client asks `cheap` back to back; see the file's comment.
void Burst(const testing::ApiProcess& api, const std::string& heavy, const std::string& cheap,
           const std::string& cheap_token, const std::vector<std::string>& tokens, int64_t n,
           const std::string& label) {
  std::atomic<bool> done{false};
  std::atomic<int64_t> peak{0};
  std::thread sampler([&] {
    while (!done) {
      peak = std::max(peak.load(), ResidentMiB(api.process->pid()));
      absl::SleepFor(absl::Milliseconds(50));
    }
  });
  std::vector<double> cheap_ms;
  int64_t cheap_errors = 0;
  std::thread cheap_client([&] {
    while (!done) {
      const absl::Time began = absl::Now();
      auto r = testing::HttpGet(absl::StrCat(api.http_base(), "/v1/chargeback?", cheap), cheap_token);
      cheap_ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - began));
      if (!r.ok() || r->status != 200) ++cheap_errors;
    }
  });
  // Each heavy client is a well-behaved one: refused (429 or 503), it waits
  // what Retry-After says and asks again, for up to two minutes.
  std::vector<int> first_statuses(static_cast<size_t>(n)), statuses(static_cast<size_t>(n));
  std::vector<int> attempts(static_cast<size_t>(n));
  std::mutex first_other_mu;
  std::string first_other;
  std::vector<double> heavy_ms(static_cast<size_t>(n));
  std::atomic<size_t> answer_bytes{0};
  const absl::Time began = absl::Now();
  std::vector<std::thread> heavy_clients;
  for (int64_t i = 0; i < n; ++i) {
    heavy_clients.emplace_back([&, i] {
      const auto k = static_cast<size_t>(i);
      const absl::Time sent = absl::Now();
      while (true) {
        auto r = testing::HttpGet(absl::StrCat(api.http_base(), "/v1/chargeback?", heavy), tokens[k % tokens.size()]);
        statuses[k] = r.ok() ? static_cast<int>(r->status) : 0;
        if (attempts[k]++ == 0) first_statuses[k] = statuses[k];
        const bool refused = r.ok() && (r->status == 429 || r->status == 503) && r->retry_after_seconds > 0;
        if (!r.ok() || (r->status != 200 && !refused)) {
          std::lock_guard<std::mutex> lock(first_other_mu);
          if (first_other.empty()) {
            first_other =
                r.ok() ? absl::StrCat("HTTP ", r->status, ": ", r->body.substr(0, 200)) : r.status().ToString();
          }
        }
        if (r.ok() && r->status == 200) answer_bytes = r->body.size();
        if (!refused || absl::Now() - sent > absl::Minutes(2)) break;
        absl::SleepFor(absl::Seconds(r->retry_after_seconds));
      }
      heavy_ms[k] = absl::ToDoubleMilliseconds(absl::Now() - sent);
    });
  }
  for (auto& t : heavy_clients) t.join();
  const double burst_s = absl::ToDoubleSeconds(absl::Now() - began);
  done = true;
  cheap_client.join();
  sampler.join();
  absl::SleepFor(absl::Seconds(5));
  const int64_t after = ResidentMiB(api.process->pid());
  auto count = [](const std::vector<int>& of, int status) {
    return static_cast<long long>(std::count(of.begin(), of.end(), status));
  };
  double slowest = 0;
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i] == 200) slowest = std::max(slowest, heavy_ms[i]);
  }
  const long long answered = count(statuses, 200);
  std::sort(cheap_ms.begin(), cheap_ms.end());
  auto at = [&](double p) {
    return cheap_ms.empty() ? 0.0 : cheap_ms[std::min(cheap_ms.size() - 1, static_cast<size_t>(p * cheap_ms.size()))];
  };
  std::printf(
      "burst, %s: %lld heavy requests (%zu bytes each), at first %lld answered, %lld refused 429, %lld refused 503; "
      "after retries %lld answered in %.1f s (%lld attempts; last answer at %.0f ms), %lld not; cheap request p50 "
      "%.1f ms, p99 %.1f ms over %zu (%lld errors); API resident peak %lld MiB, 5 s after %lld MiB\n",
      label.c_str(), static_cast<long long>(n), answer_bytes.load(), count(first_statuses, 200),
      count(first_statuses, 429), count(first_statuses, 503), answered, burst_s,
      static_cast<long long>(std::accumulate(attempts.begin(), attempts.end(), 0)), slowest,
      static_cast<long long>(n) - answered, at(0.5), at(0.99), cheap_ms.size(), static_cast<long long>(cheap_errors),
      static_cast<long long>(peak.load()), static_cast<long long>(after));
  if (!first_other.empty()) std::printf("  first other answer: %s\n", first_other.c_str());
  std::fflush(stdout);
}

int Main(int argc, char** argv) {
  Settings s;
  if (!Parse(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: chargeback_http_bench [--lines N] [--days N] [--clients N] [--seconds N] [--burst N] "
                 "[--db URI] [--api PATH]\n");
    return 2;
  }
  std::unique_ptr<BenchPostgres> postgres;
  if (s.db.empty()) {
    postgres = BenchPostgres::Start("cbhttpbench", fleetcap::testing::SourcePath("scripts/pg.sh"));
    if (postgres == nullptr) return 1;
  }
  const std::string uri = s.db.empty() ? postgres->uri() : s.db;

  int64_t hourly = 0, daily = 0;
  try {
    pqxx::connection conn(uri);
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return 1;
    }
    auto count = [&](const char* table) {
      return pqxx::nontransaction(conn).exec1(absl::StrCat("SELECT count(*) FROM ", table))[0].as<int64_t>();
    };
    if (count("chargeback_hourly") > 0) {
      hourly = count("chargeback_hourly");
      daily = count("chargeback_daily");
      std::printf(
          "reusing the %lld hourly lines and %lld daily rows of the database given (its days are read by --days)\n",
          static_cast<long long>(hourly), static_cast<long long>(daily));
    } else {
      const absl::Time began = absl::Now();
      for (int64_t d = 0; d < s.days; ++d) LoadDay(conn, s, d);
      const absl::Time loaded = absl::Now();
      BuildRollups(conn);
      pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
      hourly = count("chargeback_hourly");
      daily = count("chargeback_daily");
      std::printf(
          "%lld hourly lines (%lld a hour, %lld days) generated in the database in %.1f s; daily rollup %lld rows, "
          "rollups built as ReplaceHours builds them + VACUUM ANALYZE in %.1f s\n",
          static_cast<long long>(hourly), static_cast<long long>(s.lines + 24), static_cast<long long>(s.days),
          absl::ToDoubleSeconds(loaded - began), static_cast<long long>(daily),
          absl::ToDoubleSeconds(absl::Now() - loaded));
    }
  } catch (const std::exception& e) {
    std::cerr << "chargeback_http_bench: loading: " << e.what() << "\n";
    return 1;
  }

  auto api = testing::StartApi(s.api, uri);
  if (!api.ok()) {
    std::cerr << "cannot start fleetcap-api: " << api.status() << "\n";
    return 1;
  }
  {
    auto stub =
        v1::PolicyService::NewStub(grpc::CreateChannel(api->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + api->admin_token);
    v1::ApplyPolicyRequest apply;
    apply.set_document(Policy());
    v1::ApplyPolicyResponse applied;
    if (grpc::Status status = stub->ApplyPolicy(&context, apply, &applied); !status.ok()) {
      std::cerr << "applying the policy: " << status.error_message() << "\n";
      return 1;
    }
  }
  auto planner = testing::MintToken(uri, "planner");
  auto team = testing::MintToken(uri, "team:t-1");
  if (!planner.ok() || !team.ok()) {
    std::cerr << "minting tokens: " << planner.status() << " " << team.status() << "\n";
    return 1;
  }

  const absl::Time end = kStart + absl::Hours(24 * s.days);
  const std::string whole = absl::StrCat("start=", FormatRfc3339(kStart), "&end=", FormatRfc3339(end));
  // Not on day boundaries: two hours in at each end.
  const std::string ragged =
      absl::StrCat("start=", FormatRfc3339(kStart + absl::Hours(2)), "&end=", FormatRfc3339(end - absl::Hours(2)));
  // What the planner's answers must total: the hourly lines of the window, summed in the database.
  std::string whole_total, ragged_total;
  try {
    pqxx::connection conn(uri);
    const std::string sum =
        "SELECT sum(total_cost_micro)::text FROM chargeback_hourly WHERE hour >= $1::timestamptz AND hour < "
        "$2::timestamptz";
    whole_total =
        pqxx::nontransaction(conn).exec_params1(sum, FormatRfc3339(kStart), FormatRfc3339(end))[0].as<std::string>();
    ragged_total =
        pqxx::nontransaction(conn)
            .exec_params1(sum, FormatRfc3339(kStart + absl::Hours(2)), FormatRfc3339(end - absl::Hours(2)))[0]
            .as<std::string>();
  } catch (const std::exception& e) {
    std::cerr << "chargeback_http_bench: summing the lines: " << e.what() << "\n";
    return 1;
  }
  const std::vector<Query> queries = {
      {"planner, team, whole days", whole + "&group_by=team", *planner, whole_total},
      {"planner, team, not whole days", ragged + "&group_by=team", *planner, ragged_total},
      {"team:t-1, team, whole days", whole + "&group_by=team", *team, ""},
      {"planner, team+model, by day", whole + "&group_by=team,model&resolution=day", *planner, whole_total},
  };
  std::printf("%lld clients, %lld s per query; latency in ms\n", static_cast<long long>(s.clients),
              static_cast<long long>(s.seconds));
  std::printf("%-34s %8s %8s %8s %8s %8s %7s %9s\n", "query", "requests", "p50", "p90", "p99", "max", "errors",
              "bytes");
  int64_t failed = 0;
  std::string body;
  for (const Query& q : queries) {
    failed += Measure(*api, q, s, &body);
    if (&q == &queries.front()) std::printf("  answer: %s\n", body.substr(0, 300).c_str());
    if (!q.total.empty() && body.find(absl::StrCat("\"totalCostMicro\":\"", q.total, "\"")) == std::string::npos) {
      std::printf("  wrong answer: totalCostMicro is not the lines' %s\n", q.total.c_str());
      ++failed;
    }
  }
  if (s.burst > 0) {
    std::vector<std::string> planners;
    for (int64_t i = 0; i <= s.burst; ++i) {
      auto token = testing::MintToken(uri, "planner");
      if (!token.ok()) return 1;
      planners.push_back(*token);
    }
    const std::string heavy = whole + "&group_by=team,model&resolution=hour";
    const std::string cheap = absl::StrCat("start=", FormatRfc3339(kStart),
                                           "&end=", FormatRfc3339(kStart + absl::Hours(24)), "&group_by=team");
    std::printf("API resident before the bursts: %lld MiB\n", static_cast<long long>(ResidentMiB(api->process->pid())));
    // The cheap client has a token of its own: its answers say what everyone else waits.
    const std::string cheap_token = planners.back();
    planners.pop_back();
    Burst(*api, heavy, cheap, cheap_token, {*planner}, s.burst, "one token");
    Burst(*api, heavy, cheap, cheap_token, planners, s.burst, absl::StrCat(s.burst, " tokens"));
  }
  try {
    MeasureFormerReads(uri, FormatRfc3339(kStart), FormatRfc3339(end), FormatRfc3339(kStart + absl::Hours(2)),
                       FormatRfc3339(end - absl::Hours(2)), FormatRfc3339(kStart + absl::Hours(24)),
                       FormatRfc3339(end - absl::Hours(24)));
  } catch (const std::exception& e) {
    std::cerr << "chargeback_http_bench: former reads: " << e.what() << "\n";
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::Main(argc, argv); }
