// The fleet summary (GET /v1/fleet/summary) over a year of hold history
// (docs/benchmarks.md, "Fleet summary over a year of history"): a private
// PostgreSQL (scripts/pg.sh, default settings), migrated, seeded in SQL with
// N devices over C clusters and D days of holds, P pods a device a day
// (tests/support/seeded_hold_history.h), then VACUUM ANALYZE as autovacuum
// would leave it.
// Then each read is timed K times, "now" (no instant) and at instants drawn
// at random over the history, each series on a fresh connection so that its
// first call is a first call (a new backend; the server's cache is warm from
// the seeding, as a running server's is):
//   store     PgLiveInventoryRepository::SummarizeAt (devices and held per model)
//   holders   PgTeamFactsRepository::HoldersAt (held per pod, for the teams)
//   summary   the API's whole query (FleetSummaryQuery over the PostgreSQL
//             repositories: inventory, teams under the policy, the chargeback
//             of the last closed hour), without the HTTP transport
// "Now" is also read from the facts as at any instant (the reads before
// migration 0032 kept it), in the same run, marked "facts (before)", and who
// holds devices now as migration 0032 read it (the open holds and the live
// pods, before migration 0033 kept it per namespace and team); and the write
// cost of keeping it: a batch of new pods, their open holds, updates of the
// pods and the holds' closing, with the holders_now triggers disabled and
// enabled.
// Past instants are read from the facts current then (before migration
// 0036), then the summary's checkpoints are built over the whole history
// (timed, with their size), and past instants and instants 90 minutes ago
// read from them and the changes since.
// It prints first call, p50, p99 and max in milliseconds, and the size of the
// holds table with its indexes.
//
//   summary_read_bench [--devices N] [--days D] [--pods-per-day P] [--clusters C] [--calls K] [--seed S]

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/clock.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "services/api/fleet/fleet_summary.h"
#include "services/api/team_attribution.h"
#include "store/migrator.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_instant_checkpoints.h"
#include "store/pg_instant_sql.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_team_facts_repository.h"
#include "tests/bench/bench_postgres.h"
#include "tests/bench/call_latency.h"
#include "tests/support/build_paths.h"
#include "tests/support/seeded_hold_history.h"

namespace fleetcap::bench {
namespace {

struct SummarySettings {
  testing::HoldHistoryShape shape;
  int64_t calls = 200;
  int64_t seed = 1;
};

bool ParseSummaryFlags(int argc, char** argv, SummarySettings* s) {
  for (int i = 1; i + 1 < argc; i += 2) {
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--devices") == 0) target = &s->shape.devices;
    if (std::strcmp(argv[i], "--days") == 0) target = &s->shape.days;
    if (std::strcmp(argv[i], "--pods-per-day") == 0) target = &s->shape.pods_per_day;
    if (std::strcmp(argv[i], "--clusters") == 0) target = &s->shape.clusters;
    if (std::strcmp(argv[i], "--calls") == 0) target = &s->calls;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->seed;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1) {
      std::fprintf(stderr, "summary_read_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1;
}

// Times `call(instant)` over `instants`; false (having said why) on an error.
bool TimeSeries(const std::string& name, const std::vector<absl::Time>& instants,
                const std::function<absl::Status(absl::Time)>& call) {
  std::vector<double> ms;
  for (absl::Time at : instants) {
    const absl::Time began = absl::Now();
    if (absl::Status st = call(at); !st.ok()) {
      std::cerr << name << ": " << st << "\n";
      return false;
    }
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - began));
  }
  const CallLatency f = LatencyOf(std::move(ms));
  std::printf("%-34s first %8.2f  p50 %8.2f  p99 %8.2f  max %8.2f ms  (%zu calls)\n", name.c_str(), f.first_ms,
              f.p50_ms, f.p99_ms, f.max_ms, instants.size());
  return true;
}

// Builds the summary's checkpoints over the whole history
// (store/pg_instant_checkpoints.h) and prints their number, time and size.
bool FillCheckpoints(const std::string& uri) {
  auto pool = PgPool::Open(uri, 1);
  if (!pool.ok()) {
    std::cerr << pool.status() << "\n";
    return false;
  }
  const absl::Time began = absl::Now();
  auto fill = store::PgInstantCheckpoints(pool->get()).Fill(*RealClock::Instance(), absl::Hours(24));
  const double seconds = absl::ToDoubleSeconds(absl::Now() - began);
  if (!fill.ok() || !fill->complete) {
    std::cerr << "checkpoints: " << (fill.ok() ? "not complete" : fill.status().ToString()) << "\n";
    return false;
  }
  pqxx::connection conn(uri);
  pqxx::nontransaction txn(conn);
  const auto sizes = txn.exec(
      "SELECT (SELECT count(*) FROM summary_checkpoints), (SELECT count(*) FROM holder_checkpoints),"
      " pg_total_relation_size('instant_checkpoints') + pg_total_relation_size('summary_checkpoints')"
      " + pg_total_relation_size('holder_checkpoints')");
  std::printf("checkpoints: %lld built in %.1f s (%.2f ms each); %lld summary rows, %lld holder rows, %.1f MiB\n",
              static_cast<long long>(fill->built), seconds, 1000 * seconds / static_cast<double>(fill->built),
              sizes[0][0].as<long long>(), sizes[0][1].as<long long>(), sizes[0][2].as<double>() / (1 << 20));
  return true;
}

int SummaryMain(int argc, char** argv) {
  SummarySettings s;
  if (!ParseSummaryFlags(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: summary_read_bench [--devices N] [--days D] [--pods-per-day P] [--clusters C] [--calls K]"
                 " [--seed S]\n");
    return 2;
  }
  const std::unique_ptr<BenchPostgres> postgres =
      BenchPostgres::Start("summarybench", fleetcap::testing::SourcePath("scripts/pg.sh"));
  if (postgres == nullptr) return 1;
  const std::string& uri = postgres->uri();
  const absl::Time now = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 3600 * 3600);
  const absl::Time history_start = now - absl::Hours(24 * s.shape.days);

  try {
    pqxx::connection conn(uri);
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return 1;
    }
    const absl::Time seeding = absl::Now();
    absl::Duration holds_insert;
    {
      pqxx::work txn(conn);
      testing::SeedHoldHistory(txn, s.shape, now, &holds_insert);
      txn.commit();
    }
    const absl::Time analyzing = absl::Now();
    pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
    pqxx::nontransaction txn(conn);
    const auto sizes = txn.exec(
        "SELECT (SELECT count(*) FROM holds), (SELECT count(*) FROM holds WHERE held_to IS NULL),"
        " pg_table_size('holds'), pg_indexes_size('holds'), (SELECT count(*) FROM pods), "
        "pg_total_relation_size('pods')");
    const double holds = sizes[0][0].as<double>(), table = sizes[0][2].as<double>(), index = sizes[0][3].as<double>();
    std::printf(
        "devices %lld, clusters %lld, days %lld, pods a device-day %lld: %.0f holds (%lld open), %lld pods;"
        " seeded in %.1f s, VACUUM ANALYZE %.1f s\n",
        static_cast<long long>(s.shape.devices), static_cast<long long>(s.shape.clusters),
        static_cast<long long>(s.shape.days), static_cast<long long>(s.shape.pods_per_day), holds,
        sizes[0][1].as<long long>(), sizes[0][4].as<long long>(), absl::ToDoubleSeconds(analyzing - seeding),
        absl::ToDoubleSeconds(absl::Now() - analyzing));
    std::printf("holds inserted (one INSERT ... SELECT, every index maintained) in %.1f s: %.0f rows/s\n",
                absl::ToDoubleSeconds(holds_insert), holds / absl::ToDoubleSeconds(holds_insert));
    std::printf("holds: table %.0f MiB, indexes %.0f MiB (%.0f + %.0f bytes a hold); pods with indexes %.0f MiB\n",
                table / 1048576, index / 1048576, table / holds, index / holds, sizes[0][5].as<double>() / 1048576);
    const auto kept = txn.exec(
        "SELECT (SELECT count(*) FROM fleet_now), pg_total_relation_size('fleet_now'),"
        " (SELECT count(*) FROM holders_now), pg_total_relation_size('holders_now')");
    std::printf("kept: fleet_now %lld rows, %.0f KiB; holders_now %lld rows, %.0f KiB\n", kept[0][0].as<long long>(),
                kept[0][1].as<double>() / 1024, kept[0][2].as<long long>(), kept[0][3].as<double>() / 1024);
    for (const auto& row :
         txn.exec("SELECT indexname, pg_relation_size(indexname::regclass) FROM pg_indexes WHERE tablename = 'holds'"
                  " ORDER BY indexname")) {
      std::printf("  index %-24s %8.0f MiB\n", row[0].c_str(), row[1].as<double>() / 1048576);
    }
  } catch (const std::exception& e) {
    std::cerr << "seeding: " << e.what() << "\n";
    return 1;
  }

  // The write cost of the kept state: a batch as an ingest writes it, one
  // row a device, timed statement by statement with migration 0033's
  // holders_now triggers disabled (before: migration 0032's fleet_now
  // triggers only) and enabled (after), each rolled back; twice, so that the
  // second pair runs on warm pages.
  try {
    pqxx::connection conn(uri);
    const std::vector<std::pair<const char*, const char*>> statements = {
        {"new pods inserted",
         "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, phase, created_at)"
         " SELECT 'c' || ((i / 8) % $2::int), 'w-' || i, 'ns-' || (i % 200), 'w-' || i, 't-' || (i % 200 / 10),"
         " 'Job', 'w', 'Pending', $1::timestamptz - interval '2 minutes' FROM generate_series(0, $3::int - 1) i"},
        {"new open holds inserted",
         "INSERT INTO holds (cluster, pod_uid, device_id, milli, held_from)"
         " SELECT 'c' || ((i / 8) % $2::int), 'w-' || i, 'd-' || i, 500, $1::timestamptz - interval '1 minute'"
         " FROM generate_series(0, $3::int - 1) i"},
        {"pods updated, same team",
         "UPDATE pods SET phase = 'Running' FROM generate_series(0, $3::int - 1) i"
         " WHERE pods.cluster = 'c' || ((i / 8) % $2::int) AND pods.pod_uid = 'w-' || i AND $1::text IS NOT NULL"},
        {"pods updated, team moved",
         "UPDATE pods SET team = 'moved' FROM generate_series(0, $3::int - 1) i"
         " WHERE pods.cluster = 'c' || ((i / 8) % $2::int) AND pods.pod_uid = 'w-' || i AND $1::text IS NOT NULL"},
        {"open holds closed",
         "UPDATE holds SET held_to = $1::timestamptz FROM generate_series(0, $3::int - 1) i"
         " WHERE holds.cluster = 'c' || ((i / 8) % $2::int) AND holds.pod_uid = 'w-' || i"
         " AND holds.device_id = 'd-' || i AND holds.held_to IS NULL"},
    };
    for (const bool kept : {false, true, false, true}) {
      pqxx::work txn(conn);
      if (!kept) {
        for (const char* table : {"holds", "devices", "pods"}) {
          for (const char* op : {"inserted", "updated", "deleted"}) {
            txn.exec(absl::StrCat("ALTER TABLE ", table, " DISABLE TRIGGER holders_now_", table, "_", op));
          }
        }
      }
      for (const auto& [name, sql] : statements) {
        const absl::Time began = absl::Now();
        const auto changed = txn.exec_params(sql, FormatRfc3339(now), s.shape.clusters, s.shape.devices);
        const double seconds = absl::ToDoubleSeconds(absl::Now() - began);
        std::printf("%-26s (%s): %zu rows in %.3f s, %.0f rows/s\n", name,
                    kept ? "holders_now kept, after" : "holders_now triggers disabled, before", changed.affected_rows(),
                    seconds, static_cast<double>(changed.affected_rows()) / seconds);
      }
      txn.abort();
    }
  } catch (const std::exception& e) {
    std::cerr << "write cost: " << e.what() << "\n";
    return 1;
  }

  // The check: now, every device is in service and each open hold holds a whole device.
  {
    auto pool = PgPool::Open(uri, 1);
    if (!pool.ok()) {
      std::cerr << pool.status() << "\n";
      return 1;
    }
    auto counts = store::PgLiveInventoryRepository(pool->get()).SummarizeAt("", now);
    if (!counts.ok()) {
      std::cerr << counts.status() << "\n";
      return 1;
    }
    int64_t devices = 0, held = 0;
    for (const store::ModelCount& c : *counts) {
      devices += c.devices;
      held += c.held_milli;
    }
    const int64_t open = s.shape.open_milli();
    std::printf("now: %lld devices in service, %lld milli-devices held (expected %lld and %lld)\n",
                static_cast<long long>(devices), static_cast<long long>(held), static_cast<long long>(s.shape.devices),
                static_cast<long long>(open));
    if (devices != s.shape.devices || held != open) return 1;
  }

  std::mt19937_64 random(static_cast<uint64_t>(s.seed));
  std::uniform_int_distribution<int64_t> second(0, absl::ToInt64Seconds(now - history_start) - 1);
  std::vector<absl::Time> past, current(static_cast<size_t>(s.calls), now);
  for (int64_t i = 0; i < s.calls; ++i) past.push_back(history_start + absl::Seconds(second(random)));

  // A fresh pool (so a fresh backend), and fresh readers over it, per series.
  using Call = std::function<absl::Status(absl::Time)>;
  auto series = [&](const std::string& name, const std::vector<absl::Time>& instants,
                    const std::function<bool(PgPool*, const std::function<bool(const Call&)>&)>& with_call) {
    auto pool = PgPool::Open(uri, 1);
    if (!pool.ok()) {
      std::cerr << pool.status() << "\n";
      return false;
    }
    return with_call(pool->get(), [&](const Call& call) { return TimeSeries(name, instants, call); });
  };
  auto store_summary = [](const std::string& cluster) {
    return [cluster](PgPool* pool, const std::function<bool(const Call&)>& time) {
      store::PgLiveInventoryRepository inventory(pool);
      return time([&](absl::Time at) { return inventory.SummarizeAt(cluster, at).status(); });
    };
  };
  // Before migration 0032: "now" read from the facts as at any instant.
  auto from_facts = [&uri](const char* sql) {
    return [sql, &uri](PgPool*, const std::function<bool(const Call&)>& time) {
      pqxx::connection conn(uri);
      return time([&](absl::Time at) {
        pqxx::read_transaction txn(conn);
        txn.exec_params(sql, std::string(), FormatRfc3339(at));
        return absl::OkStatus();
      });
    };
  };
  // Migration 0032's read of who holds devices now, whose only parameter is the cluster.
  auto kept_rows = [&uri](const char* sql) {
    return [sql, &uri](PgPool*, const std::function<bool(const Call&)>& time) {
      pqxx::connection conn(uri);
      return time([&](absl::Time) {
        pqxx::read_transaction txn(conn);
        txn.exec_params(sql, std::string());
        return absl::OkStatus();
      });
    };
  };
  auto holders = [](PgPool* pool, const std::function<bool(const Call&)>& time) {
    store::PgTeamFactsRepository facts(pool);
    return time([&](absl::Time at) { return facts.HoldersAt("", at).status(); });
  };
  // As fleetcap-api holds them: one set of readers for every request.
  auto api_summary = [](bool with_instant) {
    return [with_instant](PgPool* pool, const std::function<bool(const Call&)>& time) {
      store::PgLiveInventoryRepository inventory(pool);
      store::PgTeamFactsRepository facts(pool);
      store::PgChargebackRepository lines(pool);
      api::TeamAttribution teams(&facts);
      api::FleetSummaryQuery query(&inventory, RealClock::Instance(), &teams, &lines);
      return time([&](absl::Time at) {
        v1::GetFleetSummaryRequest request;
        if (with_instant) request.mutable_at()->set_seconds(absl::ToUnixSeconds(at));
        return query.Run(request).status();
      });
    };
  };
  // Past instants from the facts current then (before migration 0036), then
  // the checkpoints built over the whole history, as the optimizer's passes
  // build them, and the past instants again from them.
  const bool before = series("store, past instants, facts (before)", past, from_facts(store::kSummarizeAtSql)) &&
                      series("holders, past instants, facts (before)", past, from_facts(store::kHoldersAtSql));
  if (!before || !FillCheckpoints(uri)) return 1;
  std::vector<absl::Time> recent;
  for (int64_t i = 0; i < s.calls; ++i) recent.push_back(now - absl::Minutes(90) + absl::Seconds(second(random) % 60));
  const bool ok = series("store, now, facts (before)", current, from_facts(store::kSummarizeAtSql)) &&
                  series("store, 90 minutes ago", recent, store_summary("")) &&
                  series("API summary, 90 minutes ago", recent, api_summary(true)) &&
                  series("store, now", current, store_summary("")) &&
                  series("store, past instants", past, store_summary("")) &&
                  series("store c0, now", current, store_summary("c0")) &&
                  series("store c0, past instants", past, store_summary("c0")) &&
                  series("holders, now, facts (before)", current, from_facts(store::kHoldersAtSql)) &&
                  series("holders, now, open holds (0032)", current, kept_rows(store::kHoldersOfOpenHoldsSql)) &&
                  series("holders, now", current, holders) && series("holders, past instants", past, holders) &&
                  series("API summary, now", current, api_summary(false)) &&
                  series("API summary, past instants", past, api_summary(true));
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::SummaryMain(argc, argv); }
