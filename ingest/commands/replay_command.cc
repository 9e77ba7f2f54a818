#include "ingest/commands/replay_command.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/daemon.h"
#include "common/exit.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "ingest/openb/openb_replay.h"
#include "ingest/synthetic/synthetic_trace.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "store/migrator.h"
#include "store/pg_live_inventory_repository.h"

namespace fleetcap::ingest {
namespace {

constexpr const char* kReplayUsage = R"(replay --trace openb --data DIR --cluster NAME --start T [flags]
       replay --trace synthetic --nodes N --pods P --seed S --cluster NAME --start T [flags]

Places the published openb trace's pods on its nodes (next-fit, see
docs/replay.md) and stores the result as cluster NAME's inventory, with trace
second 0 at instant T. Replaces what NAME had, so it can be rerun. A synthetic
trace is drawn from the openb trace's shapes at any size, deterministically
by seed (ingest/synthetic).)";

// What the replay stored, on the process's /metrics (registered before it
// starts, so that a scrape during a long replay sees the families at zero).
class ReplayMetrics {
 public:
  ReplayMetrics(prometheus::Registry& registry, const std::string& trace)
      : replays_(prometheus::BuildCounter()
                     .Name("fleetcap_ingest_replays_total")
                     .Help("Trace replays stored, by trace")
                     .Register(registry)
                     .Add({{"trace", trace}})),
        facts_(prometheus::BuildGauge()
                   .Name("fleetcap_ingest_replay_facts")
                   .Help("Facts stored by the last replay, by kind")
                   .Register(registry)),
        quarantined_(prometheus::BuildCounter()
                         .Name("fleetcap_ingest_replay_quarantined_total")
                         .Help("Trace rows set aside in the quarantine instead of replayed, by reason")
                         .Register(registry)
                         .Add({{"reason", "malformed"}})) {}

  void Record(const ReplayReport& report) {
    replays_.Increment();
    facts_.Add({{"kind", "nodes"}}).Set(static_cast<double>(report.nodes));
    facts_.Add({{"kind", "devices"}}).Set(static_cast<double>(report.devices));
    facts_.Add({{"kind", "pods"}}).Set(static_cast<double>(report.pods));
    facts_.Add({{"kind", "holds"}}).Set(static_cast<double>(report.holds));
    if (report.set_aside_rows > 0) quarantined_.Increment(static_cast<double>(report.set_aside_rows));
  }

 private:
  prometheus::Counter& replays_;
  prometheus::Family<prometheus::Gauge>& facts_;
  prometheus::Counter& quarantined_;
};

void PrintReport(const std::string& cluster, const ReplayReport& report) {
  std::cout << "cluster " << cluster << ": " << report.nodes << " nodes, " << report.devices << " devices, "
            << report.pods << " pods (" << report.placed_pods << " placed, " << report.unplaced_pods << " unplaced, "
            << report.no_gpu_pods << " without GPUs), " << report.holds << " holds";
  if (report.set_aside_rows > 0) std::cout << ", " << report.set_aside_rows << " malformed rows set aside";
  std::cout << "\n";
}

}  // namespace

absl::StatusOr<ReplayOptions> ParseReplayFlags(const std::vector<std::string>& args, const Environment& env) {
  ReplayOptions options;
  // A one-shot: SIGTERM ends it at once, as it always has.
  options.daemon.stop_on_signal = false;
  OpenbReplayOptions& replay = options.replay;
  std::string trace_kind;
  std::string start_text = "2026-01-01T00:00:00Z";
  int64_t nodes = 100, pods = 1000, seed = 1;
  FlagSet flags("fleetcap-ingest", kReplayUsage, env);
  RegisterDaemonFlags(flags, &options.daemon);
  flags.String("trace", &trace_kind, "the trace format (openb)");
  flags.String("data", &replay.data_dir, "the folder holding the trace files");
  flags.String("pod-file", &replay.pod_file, "the pod list inside --data");
  flags.String("cluster", &replay.cluster, "the cluster the facts belong to");
  flags.String("start", &start_text, "the RFC 3339 instant of trace second 0");
  flags.Int("nodes", &nodes, "synthetic: nodes");
  flags.Int("pods", &pods, "synthetic: pods");
  flags.Int("seed", &seed, "synthetic: the seed");

  FLEETCAP_RETURN_IF_ERROR(ParseDaemonCommand(flags, args, &options.daemon));
  if (!options.daemon.help.empty()) return options;
  if (trace_kind != "openb" && trace_kind != "synthetic") {
    return absl::InvalidArgumentError(
        absl::StrCat("--trace: \"", trace_kind, "\" is not a known trace (openb, synthetic)"));
  }
  const bool synthetic = trace_kind == "synthetic";
  if (synthetic && (nodes < 1 || pods < 0 || nodes > 1000000 || pods > 10000000)) {
    return absl::InvalidArgumentError("--nodes/--pods: out of range (1..1000000 nodes, 0..10000000 pods)");
  }
  if (!synthetic && replay.data_dir.empty()) {
    return absl::InvalidArgumentError("--data: empty; give the trace's folder");
  }
  if (replay.cluster.empty()) return absl::InvalidArgumentError("--cluster: empty");
  FLEETCAP_ASSIGN_OR_RETURN(replay.start, ParseRfc3339("--start", start_text));
  FLEETCAP_RETURN_IF_ERROR(RequireDb(options.daemon));
  if (synthetic) {
    options.synthetic =
        synthetic::SyntheticOptions{static_cast<int>(nodes), static_cast<int>(pods), static_cast<uint64_t>(seed)};
  }
  return options;
}

absl::Status RunReplay(const ReplayOptions& options) {
  FLEETCAP_ASSIGN_OR_RETURN(auto daemon, Daemon::Start(options.daemon, store::CheckSchema));
  ReplayMetrics metrics(*daemon->registry(), options.synthetic ? "synthetic" : "openb");
  store::PgLiveInventoryRepository inventory(daemon->pool());
  const OpenbReplayOptions& replay = options.replay;

  RealClock clock;
  const absl::Duration began = clock.Monotonic();
  FLEETCAP_ASSIGN_OR_RETURN(ReplayReport report, options.synthetic
                                                     ? ReplayTrace(synthetic::SyntheticTrace(*options.synthetic),
                                                                   replay.cluster, replay.start, inventory, clock)
                                                     : ReplayOpenb(replay, inventory, clock));
  metrics.Record(report);
  Logger("ingest")->info("replayed {} into cluster {} in {:.2f}s",
                         options.synthetic ? "a synthetic trace" : replay.data_dir, replay.cluster,
                         absl::ToDoubleSeconds(clock.Monotonic() - began));
  PrintReport(replay.cluster, report);
  return absl::OkStatus();
}

int RunReplayCommand(const std::vector<std::string>& args) {
  return RunCommand("fleetcap-ingest replay", ParseReplayFlags(args, ProcessEnvironment()), RunReplay);
}

}  // namespace fleetcap::ingest
