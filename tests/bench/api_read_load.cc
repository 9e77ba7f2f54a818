// Read load on one or more fleetcap-api replicas, for the scale benchmark
// (tests/bench/scale_bench.sh, docs/benchmarks.md): CLIENTS threads issue
// the given GETs back to back for SECONDS seconds, each request to the next
// replica and the next query in turn, so every replica serves every query
// equally. Prints, per query and in all, requests, requests/s, p50/p90/p99/max
// latency and errors, then the requests each replica answered.
//
//   api_read_load --db URI --api http://127.0.0.1:P1[,http://127.0.0.1:P2...]
//                 [--role planner] [--clients 8] [--seconds 60] -- NAME=PATH [NAME=PATH ...]
//
// The bearer token (of --role) is minted straight into the store, as the
// integration tests do. Exits 1 when any request failed or a query got no
// answer, so the benchmark cannot report figures of error pages.

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/flags.h"
#include "tests/support/http_get.h"
#include "tests/support/tokens.h"

namespace fleetcap::bench {
namespace {

struct Query {
  std::string name;
  std::string path;  // starts with /v1/
};

// One thread's record, merged after the run (no locking while measuring).
struct ClientRecord {
  std::vector<std::vector<double>> millis;  // per query
  std::vector<int64_t> errors;              // per query
  std::vector<int64_t> per_replica;         // answered requests
  std::string first_error;
};

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())))];
}

void PrintRow(const std::string& name, std::vector<double> ms, int64_t errors, double seconds) {
  std::sort(ms.begin(), ms.end());
  std::printf("| %s | %zu | %.1f | %.1f | %.1f | %.1f | %.1f | %lld |\n", name.c_str(), ms.size(),
              static_cast<double>(ms.size()) / seconds, Percentile(ms, 0.50), Percentile(ms, 0.90),
              Percentile(ms, 0.99), ms.empty() ? 0.0 : ms.back(), static_cast<long long>(errors));
}

int Main(int argc, char** argv) {
  std::string db, apis, role = "planner";
  int64_t clients = 8, seconds = 60;
  FlagSet flags("api_read_load", "api_read_load --db URI --api URL[,URL...] [flags] -- NAME=PATH [NAME=PATH ...]");
  flags.String("db", &db, "the store's PostgreSQL URI (the token is minted there)");
  flags.String("api", &apis, "the replicas' HTTP base URLs, comma-separated");
  flags.String("role", &role, "the token's role (admin, planner, team:NAME)");
  flags.Int("clients", &clients, "client threads");
  flags.Int("seconds", &seconds, "how long to load");
  std::vector<std::string> args(argv + 1, argv + argc);
  auto parsed = flags.Parse(args);
  if (!parsed.ok()) {
    std::cerr << "api_read_load: " << parsed.status().message() << "\n";
    return 2;
  }
  if (parsed->help) {
    std::cout << flags.Help();
    return 0;
  }
  if (db.empty() || apis.empty()) {
    std::cerr << "api_read_load: --db and --api are required\n";
    return 2;
  }
  if (clients < 1 || clients > 256 || seconds < 1 || seconds > 3600) {
    std::cerr << "api_read_load: --clients takes 1..256, --seconds 1..3600\n";
    return 2;
  }
  const std::vector<std::string> bases = absl::StrSplit(apis, ',', absl::SkipEmpty());
  std::vector<Query> queries;
  for (const std::string& arg : parsed->positional) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || arg.compare(eq + 1, 4, "/v1/") != 0) {
      std::cerr << "api_read_load: query \"" << arg << "\": expected NAME=/v1/...\n";
      return 2;
    }
    queries.push_back({arg.substr(0, eq), arg.substr(eq + 1)});
  }
  if (queries.empty()) {
    std::cerr << "api_read_load: no query given\n";
    return 2;
  }
  auto token = testing::MintToken(db, role);
  if (!token.ok()) {
    std::cerr << "api_read_load: minting a " << role << " token: " << token.status() << "\n";
    return 1;
  }

  // Once, before the threads: libcurl's lazy global set-up is not safe to race.
  curl_global_init(CURL_GLOBAL_ALL);
  std::vector<ClientRecord> records(static_cast<size_t>(clients));
  std::atomic<uint64_t> next{0};
  const absl::Time began = absl::Now();
  const absl::Time until = began + absl::Seconds(seconds);
  std::vector<std::thread> threads;
  for (auto& record : records) {
    record.millis.resize(queries.size());
    record.errors.assign(queries.size(), 0);
    record.per_replica.assign(bases.size(), 0);
    threads.emplace_back([&] {
      while (absl::Now() < until) {
        // Query i to replica j in turn: with Q queries and B replicas the
        // pairs cycle through every combination.
        const uint64_t n = next.fetch_add(1);
        const size_t q = n % queries.size();
        const size_t b = (n / queries.size()) % bases.size();
        const absl::Time sent = absl::Now();
        auto r = testing::HttpGet(bases[b] + queries[q].path, *token);
        const double ms = absl::ToDoubleMilliseconds(absl::Now() - sent);
        if (!r.ok() || r->status != 200) {
          ++record.errors[q];
          if (record.first_error.empty()) {
            record.first_error = absl::StrCat(
                queries[q].name, " at ", bases[b], ": ",
                r.ok() ? absl::StrCat("HTTP ", r->status, " ", r->body.substr(0, 200)) : r.status().ToString());
          }
          continue;
        }
        record.millis[q].push_back(ms);
        ++record.per_replica[b];
      }
    });
  }
  for (auto& t : threads) t.join();
  const double elapsed = absl::ToDoubleSeconds(absl::Now() - began);

  std::printf("%lld clients, %zu replicas, %.1f s; latency in ms\n\n", static_cast<long long>(clients), bases.size(),
              elapsed);
  std::printf(
      "| query | requests | requests/s | p50 | p90 | p99 | max | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
  std::vector<double> all;
  int64_t all_errors = 0;
  bool unanswered = false;
  for (size_t q = 0; q < queries.size(); ++q) {
    std::vector<double> ms;
    int64_t errors = 0;
    for (const auto& record : records) {
      ms.insert(ms.end(), record.millis[q].begin(), record.millis[q].end());
      errors += record.errors[q];
    }
    unanswered = unanswered || ms.empty();
    all.insert(all.end(), ms.begin(), ms.end());
    all_errors += errors;
    PrintRow(queries[q].name, std::move(ms), errors, elapsed);
  }
  PrintRow("all", std::move(all), all_errors, elapsed);
  std::printf("\nanswered per replica:");
  for (size_t b = 0; b < bases.size(); ++b) {
    int64_t n = 0;
    for (const auto& record : records) n += record.per_replica[b];
    std::printf(" %s %lld", bases[b].c_str(), static_cast<long long>(n));
  }
  std::printf("\n");
  for (const auto& record : records) {
    if (!record.first_error.empty()) {
      std::printf("first error: %s\n", record.first_error.c_str());
      break;
    }
  }
  return all_errors == 0 && !unanswered ? 0 : 1;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::Main(argc, argv); }
