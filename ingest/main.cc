// fleetcap-ingest: writes inventory and usage facts into the store.
//
//   fleetcap-ingest replay --trace openb --data DIR --cluster NAME --start T

#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/flags.h"
#include "common/logging.h"
#include "common/metrics_server.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "fleetcap_version.h"
#include "ingest/openb_replay.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "store/migrator.h"
#include "store/pg_inventory_repository.h"

namespace {

constexpr const char* kUsage = R"(<command> [flags]

commands:
  replay --trace openb --data DIR --cluster NAME --start T
      Places the published openb trace's pods on its nodes (next-fit, see
      docs/replay.md) and stores the result as cluster NAME's inventory, with
      trace second 0 at instant T. Replaces what NAME had, so it can be rerun.)";

int Fail(int code, const absl::Status& status) {
  std::cerr << "fleetcap-ingest: " << status.message() << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fleetcap;
  std::string db;
  bool migrate = false;
  std::string metrics_listen;
  std::string log_level = "info";
  std::string trace_kind;
  ingest::OpenbReplayOptions replay;
  std::string start_text = "2026-01-01T00:00:00Z";
  FlagSet flags("fleetcap-ingest", kUsage);
  flags.String("db", &db, "PostgreSQL libpq URI", "FLEETCAP_DB");
  flags.Bool("migrate", &migrate, "apply pending schema migrations at start");
  flags.String("metrics-listen", &metrics_listen, "Prometheus /metrics HOST:PORT; empty for none");
  flags.String("log-level", &log_level, "trace, debug, info, warn, error, critical or off");
  flags.String("trace", &trace_kind, "replay: the trace format (openb)");
  flags.String("data", &replay.data_dir, "replay: the folder holding the trace files");
  flags.String("pod-file", &replay.pod_file, "replay: the pod list inside --data");
  flags.String("cluster", &replay.cluster, "the cluster the facts belong to");
  flags.String("start", &start_text, "replay: the RFC 3339 instant of trace second 0");

  auto parsed = flags.Parse(Args(argc, argv));
  if (!parsed.ok()) return Fail(2, parsed.status());
  if (parsed->help) {
    std::cout << flags.Help();
    return 0;
  }
  if (parsed->version) {
    std::cout << "fleetcap-ingest " << FLEETCAP_VERSION << "\n";
    return 0;
  }
  if (auto status = InitLogging(log_level); !status.ok()) return Fail(2, status);
  if (parsed->positional != std::vector<std::string>{"replay"}) {
    return Fail(2, absl::InvalidArgumentError("expected the command `replay` (see fleetcap-ingest --help)"));
  }
  if (trace_kind != "openb") {
    return Fail(2, absl::InvalidArgumentError(absl::StrCat("--trace: \"", trace_kind, "\" is not a known trace (openb)")));
  }
  if (replay.data_dir.empty()) return Fail(2, absl::InvalidArgumentError("--data: empty; give the trace's folder"));
  if (replay.cluster.empty()) return Fail(2, absl::InvalidArgumentError("--cluster: empty"));
  auto start = ParseRfc3339("--start", start_text);
  if (!start.ok()) return Fail(2, start.status());
  replay.start = *start;
  if (db.empty()) return Fail(2, absl::InvalidArgumentError("--db: empty; give a libpq URI or set FLEETCAP_DB"));

  auto registry = std::make_shared<prometheus::Registry>();
  auto& replays = prometheus::BuildCounter()
                      .Name("fleetcap_ingest_replays_total")
                      .Help("Trace replays stored, by trace")
                      .Register(*registry)
                      .Add({{"trace", trace_kind}});
  auto& facts = prometheus::BuildGauge()
                    .Name("fleetcap_ingest_replay_facts")
                    .Help("Facts stored by the last replay, by kind")
                    .Register(*registry);
  std::unique_ptr<MetricsServer> metrics_server;
  if (!metrics_listen.empty()) {
    auto started = MetricsServer::Start(metrics_listen, registry);
    if (!started.ok()) return Fail(1, started.status());
    metrics_server = std::move(*started);
  }

  auto log = Logger("ingest");
  {
    auto conn = PgConnect(db);
    if (!conn.ok()) return Fail(1, conn.status());
    if (auto status = store::Migrator().EnsureCurrent(**conn, migrate); !status.ok()) return Fail(1, status);
  }
  auto pool = PgPool::Open(db, 1);
  if (!pool.ok()) return Fail(1, pool.status());
  store::PgInventoryRepository inventory(pool->get());

  const absl::Time began = absl::Now();
  auto report = ingest::ReplayOpenb(replay, inventory);
  if (!report.ok()) return Fail(1, report.status());
  replays.Increment();
  facts.Add({{"kind", "nodes"}}).Set(static_cast<double>(report->nodes));
  facts.Add({{"kind", "devices"}}).Set(static_cast<double>(report->devices));
  facts.Add({{"kind", "pods"}}).Set(static_cast<double>(report->pods));
  facts.Add({{"kind", "holds"}}).Set(static_cast<double>(report->holds));
  log->info("replayed {} into cluster {} in {:.2f}s", replay.data_dir, replay.cluster,
            absl::ToDoubleSeconds(absl::Now() - began));
  std::cout << "cluster " << replay.cluster << ": " << report->nodes << " nodes, " << report->devices
            << " devices, " << report->pods << " pods (" << report->placed_pods << " placed, "
            << report->unplaced_pods << " unplaced, " << report->no_gpu_pods << " without GPUs), "
            << report->holds << " holds\n";
  return 0;
}
