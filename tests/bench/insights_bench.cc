// Insights over a fleet's month (docs/benchmarks.md, "Insights: waste over 30
// days"): a private PostgreSQL (scripts/pg.sh, default settings), migrated and
// seeded in SQL with N devices over C clusters holding pods all month
// (tests/support/seeded_hold_history.h: two pods a device and day, each
// holding its device for 80% of its slot) and per-minute pod telemetry for the
// last 7 days (kTelemetrySql: idle stretches of hours, some judged by SM
// activity, some minutes missing), then in the same run, each timed with its
// peak memory:
//   waste pass   the optimizer's waste pass (WastePass over the PostgreSQL
//                repositories, as fleetcap-optimizer builds it) catching up
//                the 7 days; peak RSS of this process (which holds nothing
//                but connections before it) and of the busiest backend;
//   rightsizing  the optimizer's rightsizing run (RightsizingPass, as
//                fleetcap-optimizer builds it) over the policy's 14-day
//                lookback; this process's peak RSS from the run's start;
//                checked to recommend a quarter of a device to each light
//                workload read in the lookback, and nothing else;
//   one query    the same waste in one SQL query (insights_waste.sql, gaps
//                and islands over the minutes); the peak RSS of its backend;
// checks that both found the same runs with the same device time, and money
// within the documented rounding (a run is rounded once per write of the
// pass that covers it, so a run crossing a batch's first hours may differ by
// a micro-unit per piece; --query 0 leaves the query out), then times the
// API's GetWaste over 30 days (WasteQuery over the stored days and runs,
// without the HTTP transport) beside the same figures read as GetWaste read
// them before the days were kept (every piece of the window), and
// GetSpendChange (30 days against the 30 before) and GetBudgets (a budget a
// team this month) over 60 days of chargeback seeded beside it as the
// optimizer leaves it (tests/support/seeded_chargeback_history.h: the 20
// teams of the policy, 3 workloads each), first call, p50 and p99.
//
//   insights_bench [--devices N] [--clusters C] [--calls K] [--query 0|1]

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/civil_time.h"
#include "absl/time/clock.h"
#include "common/clock.h"
#include "common/pg_pool.h"
#include "optimizer/insights/waste_summary.h"
#include "optimizer/insights_pass/rightsizing_pass.h"
#include "optimizer/teams/team_directory.h"
#include "optimizer/waste_pass/waste_pass.h"
#include "pqxx/pqxx"
#include "proto_time.h"
#include "services/api/insights/budgets_query.h"
#include "services/api/insights/spend_change_query.h"
#include "services/api/insights/waste_query.h"
#include "store/migrator.h"
#include "store/pg_attribution_facts_repository.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_insight_waste_repository.h"
#include "store/pg_rightsizing_repository.h"
#include "store/pg_team_facts_repository.h"
#include "store/pg_usage_repository.h"
#include "tests/bench/bench_postgres.h"
#include "tests/support/build_paths.h"
#include "tests/support/seeded_chargeback_history.h"
#include "tests/support/seeded_hold_history.h"

namespace fleetcap::bench {
namespace {

constexpr int64_t kDays = 30;
constexpr int64_t kTelemetryDays = 7;
constexpr int64_t kTeams = 20;

// Prices a device-hour, in the policy and (as micro-units) for the query.
// Not whole micro-units a minute, so that a run's money is rounded. The
// kTeams teams' budgets are added for the month of the run.
constexpr const char* kPolicy = R"(version: 1
teams: [{name: t-0}, {name: t-1}, {name: t-2}, {name: t-3}, {name: t-4}, {name: t-5}, {name: t-6}, {name: t-7},
        {name: t-8}, {name: t-9}, {name: t-10}, {name: t-11}, {name: t-12}, {name: t-13}, {name: t-14},
        {name: t-15}, {name: t-16}, {name: t-17}, {name: t-18}, {name: t-19}]
prices:
  - {model: bench-A100, from: 2020-01-01T00:00:00Z, per_device_hour: "2.499999"}
  - {model: bench-H100, from: 2020-01-01T00:00:00Z, per_device_hour: "4.100003"}
  - {model: bench-L4, from: 2020-01-01T00:00:00Z, per_device_hour: "0.700001"}
insights: {idle_below: 5%, idle_for: 4h}
)";
constexpr const char* kPricesSql =
    "CREATE TEMP TABLE bench_prices (model text PRIMARY KEY, micro_per_hour bigint);"
    "INSERT INTO bench_prices VALUES ('bench-A100', 2499999), ('bench-H100', 4100003), ('bench-L4', 700001)";

// A reading for every minute each pod holds its device in [$start, $end),
// by the pod's kind (a hash of its uid, 0..11), k being the minute of its
// hold (holds last 9 h 36 min):
//   kind % 4 = 0  idle (1 %) for 5 h from its second hour: a run of waste
//   kind % 4 = 1  idle for 3 h 30 min: shorter than idle_for, no waste
//   kind % 4 = 2  idle for 7 h with minute 200 unread: 2 h 50 min, then a run of 4 h 9 min
//   kind % 4 = 3  busy (60 %), one minute in 50 unread; kind 11 light
//                 instead (20 %, 6 of 80 GiB of memory): a quarter of a
//                 device would do (rightsizing's smaller slice)
// and where kind % 3 = 0 the exporter sends SM activity too (2 % idle, 50 %
// busy) with a duty cycle of 60 % throughout, so SM activity decides. The
// others use 60 of 80 GiB. Each pod is a workload of its own. Triggers are
// off, as for the seeded holds: history, not news.
constexpr int64_t kLightKind = 11;
constexpr const char* kTelemetrySql = R"sql(
INSERT INTO usage_minute (cluster, device_id, pod_uid, minute, util_mean, sm_active_mean, memory_used_bytes,
                          memory_total_bytes, samples, node, model, namespace, pod)
SELECT h.cluster, h.device_id, h.pod_uid, m.minute,
       CASE WHEN x.kind = 11 THEN 0.2 WHEN x.kind % 3 = 0 OR NOT y.idle THEN 0.6 ELSE 0.01 END,
       CASE WHEN x.kind % 3 = 0 THEN CASE WHEN y.idle THEN 0.02 ELSE 0.5 END END,
       (CASE WHEN x.kind = 11 THEN 6 ELSE 60 END)::bigint << 30, 80::bigint << 30,
       4, d.node, d.model, p.namespace, p.name
  FROM holds h
  JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
  JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id AND d.in_service_to IS NULL,
       generate_series(greatest(h.held_from, $start), least(coalesce(h.held_to, $end), $end) - interval '1 minute',
                       interval '1 minute') AS m(minute),
       LATERAL (SELECT (hashtext(h.pod_uid) & 2147483647) % 12 AS kind,
                       (extract(epoch FROM m.minute - h.held_from) / 60)::int AS k) x,
       LATERAL (SELECT CASE x.kind % 4 WHEN 0 THEN x.k BETWEEN 60 AND 359
                                       WHEN 1 THEN x.k BETWEEN 60 AND 269
                                       WHEN 2 THEN x.k BETWEEN 30 AND 449
                                       ELSE false END AS idle,
                       (x.kind % 4 = 2 AND x.k = 200) OR (x.kind % 4 = 3 AND x.k % 50 = 7) AS unread) y
 WHERE h.held_from < $end AND (h.held_to IS NULL OR h.held_to > $start) AND NOT y.unread
)sql";

// The stored pieces joined into runs (a pod's pieces that follow one another
// without a gap), in the window.
constexpr const char* kStoredRunsSql = R"sql(
CREATE TEMP TABLE pass_runs AS
SELECT cluster, pod_uid, min(start_at) AS start_at, max(end_at) AS end_at,
       sum(wasted_milli_seconds)::bigint AS wasted_milli_seconds, sum(wasted_cost_micro)::bigint AS wasted_cost_micro,
       count(*) AS pieces
  FROM (SELECT *, sum(CASE WHEN prev_end = start_at THEN 0 ELSE 1 END)
                    OVER (PARTITION BY cluster, pod_uid ORDER BY start_at) AS run
          FROM (SELECT *, lag(end_at) OVER (PARTITION BY cluster, pod_uid ORDER BY start_at) AS prev_end
                  FROM insight_waste_runs WHERE hour >= $start AND hour < $end) p) q
 GROUP BY cluster, pod_uid, run
)sql";

constexpr const char* kCompareSql = R"sql(
SELECT (SELECT count(*) FROM pass_runs), (SELECT count(*) FROM sql_runs),
       count(*) FILTER (WHERE p.pod_uid IS NULL OR s.pod_uid IS NULL),
       count(*) FILTER (WHERE p.wasted_milli_seconds <> s.wasted_milli_seconds),
       count(*) FILTER (WHERE abs(p.wasted_cost_micro - s.wasted_cost_micro) > p.pieces),
       coalesce(sum(p.wasted_milli_seconds), 0), coalesce(sum(s.wasted_milli_seconds), 0),
       coalesce(sum(p.wasted_cost_micro), 0), coalesce(sum(s.wasted_cost_micro), 0),
       coalesce(max(abs(p.wasted_cost_micro - s.wasted_cost_micro)), 0)
  FROM pass_runs p FULL JOIN sql_runs s USING (cluster, pod_uid, start_at, end_at)
)sql";

struct Settings {
  testing::HoldHistoryShape fleet;
  int64_t calls = 20;
  int64_t query = 1;  // 0: the SQL baseline is not run (a size it would take hours at)
};

bool ParseFlags(int argc, char** argv, Settings* s) {
  s->fleet.devices = 200;
  s->fleet.clusters = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--devices") == 0) target = &s->fleet.devices;
    if (std::strcmp(argv[i], "--clusters") == 0) target = &s->fleet.clusters;
    if (std::strcmp(argv[i], "--calls") == 0) target = &s->calls;
    if (std::strcmp(argv[i], "--query") == 0) target = &s->query;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < (target == &s->query ? 0 : 1)) {
      std::fprintf(stderr, "insights_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  s->fleet.days = kDays;
  s->fleet.pods_per_day = 2;
  return argc % 2 == 1;
}

std::string Literal(absl::Time t) { return absl::StrCat("'", absl::FormatTime(t), "'::timestamptz"); }

double PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024;  // KiB on Linux
}

// The largest peak RSS (VmHWM) of the server's client backends, 0 where /proc
// does not tell (a server elsewhere). Shared buffers a backend touched count.
double BackendPeakMiB(pqxx::connection& conn, bool only_self) {
  pqxx::nontransaction txn(conn);
  double peak = 0;
  for (const auto& row : txn.exec(only_self ? "SELECT pg_backend_pid()"
                                            : "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'"
                                              " AND pid <> pg_backend_pid()")) {
    std::ifstream status(absl::StrCat("/proc/", row[0].c_str(), "/status"));
    std::string line;
    while (std::getline(status, line)) {
      long long kib = 0;
      if (std::sscanf(line.c_str(), "VmHWM: %lld kB", &kib) == 1)
        peak = std::max(peak, static_cast<double>(kib) / 1024);
    }
  }
  return peak;
}

// kPolicy with a budget for each team in the month of `now`.
std::string PolicyWithBudgets(absl::Time now) {
  const absl::CivilMonth month = absl::ToCivilMonth(now, absl::UTCTimeZone());
  std::string policy = absl::StrCat(kPolicy, "budgets:\n");
  for (int64_t t = 0; t < kTeams; ++t)
    absl::StrAppend(&policy, "  - {team: t-", t, ", month: \"", absl::FormatCivilTime(month).substr(0, 7),
                    "\", amount: \"1000\"}\n");
  return policy;
}

bool Seed(const std::string& uri, const Settings& s, absl::Time now) {
  pqxx::connection conn(uri);
  if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
    std::cerr << st << "\n";
    return false;
  }
  const absl::Time began = absl::Now();
  {
    pqxx::work txn(conn);
    testing::SeedHoldHistory(txn, s.fleet, now);
    txn.commit();
  }
  const absl::Time telemetry = absl::Now();
  const absl::Time start = now - absl::Hours(24 * kTelemetryDays);
  {
    pqxx::work txn(conn);
    for (absl::Time day = start; day < now + absl::Hours(24); day += absl::Hours(24))
      txn.exec(absl::StrCat("SELECT fleetcap_ensure_usage_partition(", Literal(day), "::date)"));
    txn.exec("SET LOCAL session_replication_role = replica");
    txn.exec(absl::StrReplaceAll(kTelemetrySql, {{"$start", Literal(start)}, {"$end", Literal(now)}}));
    // The chargeback has closed every hour; the waste pass starts at the telemetry's first.
    for (int64_t c = 0; c < s.fleet.clusters; ++c) {
      txn.exec(
          absl::StrCat("INSERT INTO chargeback_watermarks (cluster, through) VALUES ('c", c, "', ", Literal(now), ")"));
      txn.exec(absl::StrCat("INSERT INTO insight_waste_watermarks (cluster, through) VALUES ('c", c, "', ",
                            Literal(start), ")"));
    }
    testing::ChargebackHistoryShape lines;
    lines.days = 60;
    lines.clusters = s.fleet.clusters;
    lines.teams = kTeams;
    testing::SeedChargebackHistory(txn, lines, now);
    txn.commit();
  }
  const absl::Time analyzing = absl::Now();
  pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
  pqxx::nontransaction txn(conn);
  const auto sizes = txn.exec(
      "SELECT (SELECT count(*) FROM holds), (SELECT count(*) FROM usage_minute),"
      " pg_size_pretty(sum(pg_total_relation_size(relid))) FROM pg_partition_tree('usage_minute') WHERE isleaf")[0];
  std::printf(
      "devices %lld over %lld clusters, %lld days of holds (%s), %lld days of minutes: %s pod readings (%s);"
      " holds seeded in %.1f s, readings and 60 days of chargeback in %.1f s, VACUUM ANALYZE %.1f s\n",
      static_cast<long long>(s.fleet.devices), static_cast<long long>(s.fleet.clusters), static_cast<long long>(kDays),
      sizes[0].c_str(), static_cast<long long>(kTelemetryDays), sizes[1].c_str(), sizes[2].c_str(),
      absl::ToDoubleSeconds(telemetry - began), absl::ToDoubleSeconds(analyzing - telemetry),
      absl::ToDoubleSeconds(absl::Now() - analyzing));
  store::PolicyVersionRecord policy;
  policy.document = PolicyWithBudgets(now);
  policy.applied_by = "bench";
  store::AuditEntry audit;
  audit.actor = "bench";
  audit.action = "policy.apply";
  auto pool = PgPool::Open(uri, 1);
  if (!pool.ok()) return false;
  if (auto applied = store::PgPolicyRepository(pool->get()).Apply(policy, std::nullopt, audit); !applied.ok()) {
    std::cerr << applied.status() << "\n";
    return false;
  }
  return true;
}

// The optimizer's waste pass, as fleetcap-optimizer builds it (its batches
// of whole workloads of WastePassOptions::batch_holds holds, the default).
bool RunWastePass(const std::string& uri, const Settings& s) {
  auto pool = PgPool::Open(uri, 4);
  if (!pool.ok()) {
    std::cerr << pool.status() << "\n";
    return false;
  }
  store::PgAttributionFactsRepository facts(pool->get());
  store::PgTeamFactsRepository team_facts(pool->get());
  store::PgChargebackRepository chargeback(pool->get());
  store::PgUsageRepository usage(pool->get());
  store::PgInsightWasteRepository waste_store(pool->get());
  policy::PolicyTimeline policies(teams::PoliciesOf(&team_facts));
  teams::TeamDirectory directory(&team_facts, &policies);
  optimizer::WastePass pass({{&facts, &directory}, &usage, &chargeback, &waste_store}, {});
  const double rss_before = PeakRssMiB();
  const absl::Time began = absl::Now();
  auto report = pass.Run();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - began);
  if (!report.ok()) {
    std::cerr << "waste pass: " << report.status() << "\n";
    return false;
  }
  pqxx::connection conn(uri);
  const double device_minutes = static_cast<double>(s.fleet.devices) * kTelemetryDays * 24 * 60;
  std::printf(
      "waste pass:  %8.1f s  peak RSS %7.1f MiB (%.1f before), busiest backend %7.1f MiB;"
      " %lld cluster hours, %lld runs; %.2f us a device-minute (batches of %lld holds)\n",
      seconds, PeakRssMiB(), rss_before, BackendPeakMiB(conn, false), static_cast<long long>(report->hours),
      static_cast<long long>(report->runs), seconds * 1e6 / device_minutes,
      static_cast<long long>(optimizer::WastePassOptions{}.batch_holds));
  return true;
}

// This process's peak RSS (VmHWM) since the last ResetPeakRss, in MiB.
double PeakRssSinceResetMiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  long long kib = 0;
  while (std::getline(status, line)) {
    if (std::sscanf(line.c_str(), "VmHWM: %lld kB", &kib) == 1) break;
  }
  return static_cast<double>(kib) / 1024;
}

// Lets PeakRssSinceResetMiB measure what comes next alone (Linux's
// clear_refs: 5 resets the peak to the current RSS).
void ResetPeakRss() { std::ofstream("/proc/self/clear_refs") << "5"; }

// The optimizer's rightsizing run, as fleetcap-optimizer builds it (parts of
// whole workloads of RightsizingPassOptions::batch_holds holds, the
// default), over the policy's lookback (14 days) ending at the current
// hour: every cluster, the 7 days of readings and the holds before them.
bool RunRightsizingPass(const std::string& uri) {
  auto pool = PgPool::Open(uri, 4);
  if (!pool.ok()) {
    std::cerr << pool.status() << "\n";
    return false;
  }
  store::PgAttributionFactsRepository facts(pool->get());
  store::PgTeamFactsRepository team_facts(pool->get());
  store::PgUsageRepository usage(pool->get());
  store::PgRightsizingRepository recommendations(pool->get());
  policy::PolicyTimeline policies(teams::PoliciesOf(&team_facts));
  teams::TeamDirectory directory(&team_facts, &policies);
  optimizer::RightsizingPass pass({&facts, &usage, &directory, &recommendations}, {}, RealClock::Instance());
  ResetPeakRss();
  const double rss_before = PeakRssSinceResetMiB();
  const absl::Time began = absl::Now();
  auto report = pass.Run();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - began);
  if (!report.ok() || !report->skipped.empty()) {
    std::cerr << "rightsizing pass: " << (report.ok() ? report->skipped : report.status().ToString()) << "\n";
    return false;
  }
  pqxx::connection conn(uri);
  std::printf(
      "rightsizing: %8.1f s  peak RSS %7.1f MiB (%.1f before), busiest backend %7.1f MiB;"
      " %lld clusters, %lld recommendations (parts of %lld holds)\n",
      seconds, PeakRssSinceResetMiB(), rss_before, BackendPeakMiB(conn, false),
      static_cast<long long>(report->clusters), static_cast<long long>(report->recommendations),
      static_cast<long long>(optimizer::RightsizingPassOptions{}.batch_holds));
  // What the seeding implies: a quarter of a device for each light workload
  // read in the lookback, and nothing for the others.
  const auto row = pqxx::nontransaction(conn).exec1(absl::StrCat(
      "SELECT (SELECT count(DISTINCT pod_uid) FROM holds h, insight_rightsizing_runs r"
      "         WHERE h.cluster = r.cluster AND (hashtext(h.pod_uid) & 2147483647) % 12 = ",
      kLightKind,
      "           AND h.held_from < r.lookback_end AND coalesce(h.held_to, 'infinity') > r.lookback_start"
      "           AND EXISTS (SELECT FROM usage_minute u WHERE u.cluster = h.cluster AND u.pod_uid = h.pod_uid"
      "                          AND u.minute >= r.lookback_start AND u.minute < r.lookback_end)),"
      "       count(*) FILTER (WHERE kind = 'smaller_slice' AND proposed LIKE 'time-slice 1/4 of %'),"
      "       count(*), coalesce(sum(savings_micro_per_month), 0) FROM insight_rightsizing"));
  const int64_t light = row[0].as<int64_t>(), quarter = row[1].as<int64_t>(), all = row[2].as<int64_t>();
  std::printf(
      "rightsizing: %lld light workloads read, %lld of them a quarter of a device, %lld in all;"
      " savings %.2f a month\n",
      static_cast<long long>(light), static_cast<long long>(quarter), static_cast<long long>(all),
      static_cast<double>(row[3].as<int64_t>()) / 1e6);
  if (light == 0 || quarter != light || all != light) {
    std::cerr << "insights_bench: the rightsizing run recommends what the seeding does not imply\n";
    return false;
  }
  return true;
}

bool RunWasteQuery(const std::string& uri, absl::Time start, absl::Time end) {
  std::ifstream file(testing::SourcePath("tests/bench/insights_waste.sql"));
  std::stringstream sql;
  sql << file.rdbuf();
  pqxx::connection conn(uri);
  pqxx::nontransaction(conn).exec(kPricesSql);
  const absl::Time began = absl::Now();
  pqxx::nontransaction(conn).exec(absl::StrReplaceAll(
      sql.str(),
      {{":start", Literal(start)}, {":end", Literal(end)}, {":idle_below", "0.05"}, {":idle_for", "interval '4h'"}}));
  const double seconds = absl::ToDoubleSeconds(absl::Now() - began);
  std::printf("one query:   %8.1f s  its backend's peak RSS %7.1f MiB\n", seconds, BackendPeakMiB(conn, true));
  pqxx::nontransaction txn(conn);
  txn.exec(absl::StrReplaceAll(kStoredRunsSql, {{"$start", Literal(start)}, {"$end", Literal(end)}}));
  const auto c = txn.exec(kCompareSql)[0];
  std::printf(
      "runs: pass %s, query %s; in one only %s, device time differing %s, money differing by more than a micro-unit a"
      " piece %s\ndevice time: pass %s, query %s milli-device-seconds; money: pass %s, query %s micro-units"
      " (largest difference in a run %s)\n",
      c[0].c_str(), c[1].c_str(), c[2].c_str(), c[3].c_str(), c[4].c_str(), c[5].c_str(), c[6].c_str(), c[7].c_str(),
      c[8].c_str(), c[9].c_str());
  const bool same = c[0].as<int64_t>() > 0 && c[2].as<int64_t>() == 0 && c[3].as<int64_t>() == 0 &&
                    c[4].as<int64_t>() == 0 && std::string(c[5].c_str()) == c[6].c_str();
  if (!same) std::cerr << "insights_bench: the pass and the query disagree\n";
  return same;
}

// GetWaste's figures as it read them before the days were kept (before
// migration 0042): every piece of the window and its workload hours, joined
// and summed as insights::Summarize sums them; the workloads it would list
// (they wasted, or are busy but light). It filled no report here, which
// GetWaste then did as it does now.
absl::StatusOr<int64_t> WasteAsBefore(const store::PgInsightWasteRepository& waste, absl::Time start, absl::Time end) {
  store::WasteFilter filter{start, end, {}, "", ""};
  filter.max_pieces = api::kMaxWastePieces;
  auto pieces = waste.Pieces(filter);
  if (!pieces.ok()) return pieces.status();
  if (static_cast<int64_t>(pieces->size()) > api::kMaxWastePieces) {
    return absl::ResourceExhaustedError("more than kMaxWastePieces pieces");
  }
  auto hours = waste.WorkloadSums(filter);
  if (!hours.ok()) return hours.status();
  std::vector<insights::IdleRun> as_runs;
  as_runs.reserve(pieces->size());
  for (const store::IdlePieceRecord& p : *pieces) {
    insights::IdleRun r;
    r.cluster = p.cluster;
    r.pod_uid = p.pod_uid;
    r.namespace_name = p.namespace_name;
    r.team = p.team;
    r.workload = p.workload;
    r.model = p.model;
    r.run_start = r.start = p.start;
    r.end = p.end;
    r.devices_milli = p.devices_milli;
    r.wasted_milli_seconds = p.wasted_milli_seconds;
    r.wasted_cost_micro = p.wasted_cost_micro;
    r.activity_milli_seconds = p.activity_milli_seconds;
    r.sm_milli_seconds = p.sm_milli_seconds;
    as_runs.push_back(std::move(r));
  }
  insights::WasteFacts facts;
  facts.runs = insights::JoinRuns(std::move(as_runs));
  for (const store::WorkloadHourRecord& h : *hours) {
    facts.workload_hours.push_back({h.cluster, h.team, h.namespace_name, h.workload, h.hour, h.held_milli_seconds,
                                    h.observed_milli_seconds, h.active_milli_seconds, h.sm_observed_milli_seconds,
                                    h.both_minutes, h.both_held_milli_seconds, h.both_duty_milli_seconds,
                                    h.both_sm_milli_seconds});
  }
  int64_t listed = 0;
  for (const insights::WorkloadWaste& w : insights::Summarize(facts).workloads) {
    if (w.tally.wasted_milli_seconds > 0 || w.tally.BusyButLight()) ++listed;
  }
  return listed;
}

// Times `call` K times on one pool after a first call; its result's size
// (workloads, drivers, budgets) is printed beside and left in `listed` when
// given; false on an error.
bool TimeCalls(const char* name, int64_t calls, const std::function<absl::StatusOr<int64_t>()>& call,
               int64_t* listed = nullptr) {
  std::vector<double> ms;
  int64_t size = 0;
  for (int64_t i = 0; i <= calls; ++i) {
    const absl::Time began = absl::Now();
    auto got = call();
    if (!got.ok()) {
      std::cerr << name << ": " << got.status() << "\n";
      return false;
    }
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - began));
    size = *got;
  }
  const double first = ms.front();
  ms.erase(ms.begin());
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(q * static_cast<double>(ms.size())))];
  };
  std::printf("%-34s first %7.1f ms  p50 %7.1f ms  p99 %7.1f ms  (%lld calls, %lld listed)\n", name, first, at(0.5),
              at(0.99), static_cast<long long>(calls), static_cast<long long>(size));
  if (listed != nullptr) *listed = size;
  return true;
}

// The API's insights reads over the store, as a planner asks them (the
// queries fleetcap-api runs, without the HTTP transport).
bool TimeReads(const std::string& uri, absl::Time now, int64_t calls) {
  auto pool = PgPool::Open(uri, 2);
  if (!pool.ok()) return false;
  store::PgInsightWasteRepository waste(pool->get());
  store::PgChargebackRepository lines(pool->get());
  store::PgPolicyRepository policy_store(pool->get());
  api::ActivePolicyCache policies(&policy_store);
  api::Scope scope;
  scope.token_id = "bench";
  scope.role = api::Role::kPlanner;
  auto active = policies.Get();
  if (!active.ok()) return false;
  scope.policy = *active;

  const api::WasteQuery waste_query(&waste, &policies);
  v1::GetWasteRequest waste_request;
  *waste_request.mutable_start() = ToProtoTimestamp(now - absl::Hours(24 * kDays));
  *waste_request.mutable_end() = ToProtoTimestamp(now);
  const api::SpendChangeQuery change_query(&lines, &policies);
  v1::GetSpendChangeRequest change_request;
  *change_request.mutable_start() = ToProtoTimestamp(now - absl::Hours(24 * 30));
  *change_request.mutable_end() = ToProtoTimestamp(now);
  const api::BudgetsQuery budgets_query(&lines, &lines, &policies, RealClock::Instance());
  const v1::GetBudgetsRequest budgets_request;
  int64_t listed_before = 0, listed = 0;
  const bool waste_timed =
      TimeCalls(
          "GetWaste, 30 days, as before 0042", calls,
          [&]() { return WasteAsBefore(waste, now - absl::Hours(24 * kDays), now); }, &listed_before) &&
      TimeCalls(
          "GetWaste, 30 days", calls,
          [&]() -> absl::StatusOr<int64_t> {
            auto report = waste_query.Run(scope, waste_request);
            if (!report.ok()) return report.status();
            return report->workload_count();
          },
          &listed);
  if (!waste_timed) return false;
  if (listed != listed_before) {
    std::cerr << "insights_bench: GetWaste lists " << listed << " workloads, as before 0042 " << listed_before << "\n";
    return false;
  }
  return TimeCalls("GetSpendChange, 30 days", calls,
                   [&]() -> absl::StatusOr<int64_t> {
                     auto report = change_query.Run(scope, change_request);
                     if (!report.ok()) return report.status();
                     return report->drivers_size();
                   }) &&
         TimeCalls("GetBudgets, this month", calls, [&]() -> absl::StatusOr<int64_t> {
           auto report = budgets_query.Run(scope, budgets_request);
           if (!report.ok()) return report.status();
           return report->budgets_size();
         });
}

int InsightsBenchMain(int argc, char** argv) {
  Settings s;
  if (!ParseFlags(argc, argv, &s)) {
    std::fprintf(stderr, "usage: insights_bench [--devices N] [--clusters C] [--calls K] [--query 0|1]\n");
    return 2;
  }
  auto postgres = BenchPostgres::Start("insightsbench", testing::SourcePath("scripts/pg.sh"));
  if (postgres == nullptr) return 1;
  const absl::Time now = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 3600 * 3600);
  try {
    if (!Seed(postgres->uri(), s, now)) return 1;
    if (!RunWastePass(postgres->uri(), s)) return 1;
    if (!RunRightsizingPass(postgres->uri())) return 1;
    if (s.query != 0 && !RunWasteQuery(postgres->uri(), now - absl::Hours(24 * kTelemetryDays), now)) return 1;
    if (!TimeReads(postgres->uri(), now, s.calls)) return 1;
  } catch (const std::exception& e) {
    std::cerr << "insights_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::InsightsBenchMain(argc, argv); }
