#include "ingest/commands/replay_command.h"

#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
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
       replay --trace openb --data DIR --cluster NAME --sample [--sample-days D] [--sample-targets M=S,...]
              [--sample-node-stride K] [--seed S]

Places the published openb trace's pods on its nodes (next-fit, see
docs/replay.md) and stores the result as cluster NAME's inventory, with trace
second 0 at instant T. Replaces what NAME had, so it can be rerun. A synthetic
trace is drawn from the openb trace's shapes at any size, deterministically
by seed (ingest/synthetic). With --sample, the trace's pods are sampled at a
realistic load (a target held share per GPU model, daily and weekly seasons,
a slow trend) over the D days before now instead, deterministically by seed;
--start is then not used (docs/replay.md, "A realistic load").)";

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

// "G2=0.78,T4=0.75": the held share to reach per GPU model.
absl::StatusOr<std::vector<openb::FlavorTarget>> ParseSampleTargets(const std::string& text) {
  std::vector<openb::FlavorTarget> targets;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> parts = absl::StrSplit(item, absl::MaxSplits('=', 1));
    double share = 0;
    if (parts.first.empty() || !absl::SimpleAtod(parts.second, &share)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--sample-targets: \"", item, "\" is not MODEL=SHARE (a share such as 0.75)"));
    }
    if (!(share > 0 && share <= 1)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--sample-targets: the share of ", parts.first, " must be above 0 and at most 1"));
    }
    targets.push_back({std::string(parts.first), share});
  }
  return targets;
}

std::string TargetsText(const std::vector<openb::FlavorTarget>& targets) {
  std::vector<std::string> items;
  for (const openb::FlavorTarget& target : targets) items.push_back(absl::StrCat(target.model, "=", target.held_share));
  return absl::StrJoin(items, ",");
}

void PrintReport(const std::string& cluster, const ReplayReport& report) {
  std::cout << "cluster " << cluster << ": " << report.nodes << " nodes, " << report.devices << " devices, "
            << report.pods << " pods (" << report.placed_pods << " placed, " << report.unplaced_pods << " unplaced, "
            << report.no_gpu_pods << " without GPUs), " << report.holds << " holds";
  if (report.set_aside_rows > 0) std::cout << ", " << report.set_aside_rows << " malformed rows set aside";
  std::cout << "\n";
}

absl::StatusOr<openb::LoadSampleOptions> SampleOptions(bool synthetic, int64_t days, const std::string& targets,
                                                       int64_t seed, int64_t node_stride) {
  if (synthetic) return absl::InvalidArgumentError("--sample: only the openb trace is sampled");
  if (days < 1 || days > 400) return absl::InvalidArgumentError("--sample-days: must be within 1..400");
  if (node_stride < 1 || node_stride > 1000) {
    return absl::InvalidArgumentError("--sample-node-stride: must be within 1..1000");
  }
  openb::LoadSampleOptions sample;
  sample.node_stride = static_cast<int>(node_stride);
  FLEETCAP_ASSIGN_OR_RETURN(sample.targets, ParseSampleTargets(targets));
  sample.seed = static_cast<uint64_t>(seed);
  sample.window_s = days * 86400;
  return sample;
}

void PrintSampledReport(const std::string& cluster, const SampledReplayReport& report) {
  PrintReport(cluster, report.replay);
  std::cout << "sampled load " << FormatRfc3339(report.start) << " .. " << FormatRfc3339(report.end) << ", "
            << report.waits << " pods found no room (stored as pending demand):\n";
  for (const openb::FlavorOutcome& flavor : report.flavors) {
    std::cout << absl::StrFormat(
        "  %-8s %5d GPUs  target %3.0f%%  held %5.1f%% over the last day, %5.1f%% now"
        "  %7.1f arrivals/h  %7d pods  %6d waited  %4d waiting now\n",
        flavor.model, flavor.capacity_milli / 1000, flavor.target * 100, flavor.held_share_last_day * 100,
        flavor.held_share_now * 100, flavor.arrivals_per_hour, flavor.pods, flavor.waits, flavor.waiting_now);
  }
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
  flags.Int("seed", &seed, "synthetic and --sample: the seed");
  bool sample = false;
  int64_t sample_days = 14;
  std::string sample_targets = TargetsText(openb::DefaultDemoTargets());
  flags.Bool("sample", &sample, "openb: sample the trace's pods at a realistic load over the days before now");
  flags.Int("sample-days", &sample_days, "--sample: the window's length in days, ending now");
  flags.String("sample-targets", &sample_targets, "--sample: the held share per GPU model, MODEL=SHARE,...");
  int64_t node_stride = 1;
  flags.Int("sample-node-stride", &node_stride, "--sample: keep one node in this many of each model (1: all)");

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
  if (sample) {
    FLEETCAP_ASSIGN_OR_RETURN(options.sample, SampleOptions(synthetic, sample_days, sample_targets, seed, node_stride));
  }
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
  if (options.sample.has_value()) {
    FLEETCAP_ASSIGN_OR_RETURN(SampledReplayReport sampled,
                              ReplaySampledOpenb(replay, *options.sample, inventory, clock));
    metrics.Record(sampled.replay);
    Logger("ingest")->info("replayed a sample of {} into cluster {} in {:.2f}s", replay.data_dir, replay.cluster,
                           absl::ToDoubleSeconds(clock.Monotonic() - began));
    PrintSampledReport(replay.cluster, sampled);
    return absl::OkStatus();
  }
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
