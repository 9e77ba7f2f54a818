#include "ingest/commands/replay_command.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "common/logging.h"
#include "common/metrics_server.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "ingest/openb/openb_replay.h"
#include "ingest/synthetic/synthetic_trace.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "store/migrator.h"
#include "store/pg_inventory_repository.h"
#include "store/pg_quarantine_repository.h"

namespace fleetcap::ingest {
namespace {

constexpr const char* kUsage = R"(replay --trace openb --data DIR --cluster NAME --start T [flags]
       replay --trace synthetic --nodes N --pods P --seed S --cluster NAME --start T [flags]

Places the published openb trace's pods on its nodes (next-fit, see
docs/replay.md) and stores the result as cluster NAME's inventory, with trace
second 0 at instant T. Replaces what NAME had, so it can be rerun. A synthetic
trace is drawn from the openb trace's shapes at any size, deterministically
by seed (ingest/synthetic).)";

int Fail(int code, const absl::Status& status) {
  std::cerr << "fleetcap-ingest replay: " << status.message() << "\n";
  return code;
}

}  // namespace

int RunReplayCommand(const std::vector<std::string>& args) {
  DaemonFlags daemon;
  std::string trace_kind;
  OpenbReplayOptions replay;
  std::string start_text = "2026-01-01T00:00:00Z";
  FlagSet flags("fleetcap-ingest", kUsage);
  daemon.Register(flags);
  flags.String("trace", &trace_kind, "the trace format (openb)");
  flags.String("data", &replay.data_dir, "the folder holding the trace files");
  flags.String("pod-file", &replay.pod_file, "the pod list inside --data");
  flags.String("cluster", &replay.cluster, "the cluster the facts belong to");
  flags.String("start", &start_text, "the RFC 3339 instant of trace second 0");
  int64_t nodes = 100, pods = 1000, seed = 1;
  flags.Int("nodes", &nodes, "synthetic: nodes");
  flags.Int("pods", &pods, "synthetic: pods");
  flags.Int("seed", &seed, "synthetic: the seed");

  auto proceed = daemon.ParseCommand(flags, args);
  if (!proceed.ok()) return Fail(2, proceed.status());
  if (!*proceed) return 0;
  if (trace_kind != "openb" && trace_kind != "synthetic") {
    return Fail(2, absl::InvalidArgumentError(
                       absl::StrCat("--trace: \"", trace_kind, "\" is not a known trace (openb, synthetic)")));
  }
  const bool synthetic = trace_kind == "synthetic";
  if (synthetic && (nodes < 1 || pods < 0 || nodes > 1000000 || pods > 10000000)) {
    return Fail(2, absl::InvalidArgumentError("--nodes/--pods: out of range (1..1000000 nodes, 0..10000000 pods)"));
  }
  if (!synthetic && replay.data_dir.empty()) {
    return Fail(2, absl::InvalidArgumentError("--data: empty; give the trace's folder"));
  }
  if (replay.cluster.empty()) return Fail(2, absl::InvalidArgumentError("--cluster: empty"));
  auto start = ParseRfc3339("--start", start_text);
  if (!start.ok()) return Fail(2, start.status());
  replay.start = *start;
  if (auto status = daemon.RequireDb(); !status.ok()) return Fail(2, status);

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
  auto& quarantined = prometheus::BuildCounter()
                          .Name("fleetcap_ingest_replay_quarantined_total")
                          .Help("Trace rows set aside in the quarantine instead of replayed, by reason")
                          .Register(*registry)
                          .Add({{"reason", "malformed"}});
  std::unique_ptr<MetricsServer> metrics_server;
  if (!daemon.metrics_listen.empty()) {
    auto started = MetricsServer::Start(daemon.metrics_listen, registry);
    if (!started.ok()) return Fail(1, started.status());
    metrics_server = std::move(*started);
  }

  {
    auto conn = PgConnect(daemon.db);
    if (!conn.ok()) return Fail(1, conn.status());
    if (auto status = store::Migrator().EnsureCurrent(**conn, daemon.migrate); !status.ok()) return Fail(1, status);
  }
  auto pool = PgPool::Open(daemon.db, 1);
  if (!pool.ok()) return Fail(1, pool.status());
  store::PgInventoryRepository inventory(pool->get());
  store::PgQuarantineRepository quarantine(pool->get());

  const absl::Time began = absl::Now();
  auto report = synthetic ? ReplayTrace(synthetic::SyntheticTrace({static_cast<int>(nodes), static_cast<int>(pods),
                                                                   static_cast<uint64_t>(seed)}),
                                        replay.cluster, replay.start, inventory, quarantine)
                          : ReplayOpenb(replay, inventory, quarantine);
  if (!report.ok()) return Fail(1, report.status());
  replays.Increment();
  facts.Add({{"kind", "nodes"}}).Set(static_cast<double>(report->nodes));
  facts.Add({{"kind", "devices"}}).Set(static_cast<double>(report->devices));
  facts.Add({{"kind", "pods"}}).Set(static_cast<double>(report->pods));
  facts.Add({{"kind", "holds"}}).Set(static_cast<double>(report->holds));
  if (report->set_aside_rows > 0) quarantined.Increment(static_cast<double>(report->set_aside_rows));
  Logger("ingest")->info("replayed {} into cluster {} in {:.2f}s", synthetic ? "a synthetic trace" : replay.data_dir,
                         replay.cluster,
                         absl::ToDoubleSeconds(absl::Now() - began));
  std::cout << "cluster " << replay.cluster << ": " << report->nodes << " nodes, " << report->devices
            << " devices, " << report->pods << " pods (" << report->placed_pods << " placed, "
            << report->unplaced_pods << " unplaced, " << report->no_gpu_pods << " without GPUs), "
            << report->holds << " holds";
  if (report->set_aside_rows > 0) std::cout << ", " << report->set_aside_rows << " malformed rows set aside";
  std::cout << "\n";
  return 0;
}

}  // namespace fleetcap::ingest
