#include "ingest/openb/sampled_load.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace fleetcap::openb {
namespace {

constexpr double kSampleTwoPi = 6.283185307179586;
constexpr int64_t kSampleDayS = 86400;
constexpr int64_t kSampleWeekS = 7 * kSampleDayS;
// The daily peak at 14:00 UTC; the weekly one on Wednesday noon (the Unix
// epoch was a Thursday, so Wednesday starts 6 days into a week counted from it).
constexpr int64_t kDailyPeakS = 14 * 3600;
constexpr int64_t kWeeklyPeakS = 6 * kSampleDayS + 12 * 3600;
constexpr double kTrendDaysS = 30.0 * kSampleDayS;

// Uniform and exponential draws from std::mt19937_64, whose sequence the
// standard fixes, so a seed gives the same load on every machine (the
// standard's distributions are free to differ between libraries).
class SampleRandom {
 public:
  explicit SampleRandom(uint64_t seed) : engine_(seed) {}

  double Uniform() { return static_cast<double>((engine_() >> 11) + 1) * 0x1.0p-53; }  // (0, 1]
  size_t Index(size_t n) { return std::min(n - 1, static_cast<size_t>(Uniform() * static_cast<double>(n))); }
  double Exponential(double rate) { return -std::log(Uniform()) / rate; }

 private:
  std::mt19937_64 engine_;
};

// A seed per flavor (FNV-1a of its model over the seed), so that calibrating
// one flavor changes nothing of another.
uint64_t FlavorSeed(uint64_t seed, const std::string& model) {
  uint64_t hash = 1469598103934665603ULL ^ seed;
  for (unsigned char c : model) hash = (hash ^ c) * 1099511628211ULL;
  return hash;
}

double PositiveFraction(int64_t value, int64_t period) {
  int64_t mod = value % period;
  if (mod < 0) mod += period;
  return static_cast<double>(mod) / static_cast<double>(period);
}

double TrendFactor(const LoadSampleOptions& options, int64_t t) {
  return std::max(0.1, 1.0 + options.trend_per_30_days * static_cast<double>(t - options.window_s) / kTrendDaysS);
}

// The rate's shape at trace second `t` (negative in the warm-up): 1 at the
// window's end on average over a week.
double RateShape(const LoadSampleOptions& options, int64_t t) {
  const int64_t at = options.start_unix_s + t;
  const double daily =
      1 + options.daily_amplitude * std::cos(kSampleTwoPi * PositiveFraction(at - kDailyPeakS, kSampleDayS));
  const double weekly =
      1 + options.weekly_amplitude * std::cos(kSampleTwoPi * PositiveFraction(at - kWeeklyPeakS, kSampleWeekS));
  return daily * weekly * TrendFactor(options, t);
}

int64_t SampledDuration(const OpenbPod& pod, int64_t max_duration_s) {
  return std::clamp<int64_t>(*pod.deletion_s - *pod.scheduled_s, 1, max_duration_s);
}

// One flavor: its nodes and the trace pods that fit on one of them.
struct FlavorPlan {
  std::string model;
  double target = 0;
  std::vector<size_t> nodes;     // indices into the source's nodes
  std::vector<size_t> eligible;  // indices into the source's pods
  int64_t capacity_milli = 0;
  double mean_milli_seconds = 0;  // of an eligible pod's hold
};

bool Samplable(const OpenbPod& pod) {
  const GpuRequest request = ClassifyGpuRequest(pod);
  return (request == GpuRequest::kWhole || request == GpuRequest::kShare) && pod.scheduled_s.has_value() &&
         pod.deletion_s.has_value() && *pod.deletion_s > *pod.scheduled_s;
}

std::vector<FlavorPlan> PlanFlavors(const OpenbTrace& source, const LoadSampleOptions& options) {
  std::map<std::string, FlavorPlan> by_model;
  std::map<std::string, int32_t> widest;
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    const OpenbNode& node = source.nodes[n];
    if (node.gpus <= 0) continue;
    FlavorPlan& plan = by_model[node.model];
    plan.model = node.model;
    plan.nodes.push_back(n);
    plan.capacity_milli += int64_t{node.gpus} * 1000;
    widest[node.model] = std::max(widest[node.model], node.gpus);
  }
  std::vector<FlavorPlan> plans;
  for (auto& [model, plan] : by_model) {
    plan.target = options.default_share;
    for (const FlavorTarget& target : options.targets) {
      if (target.model == model) plan.target = target.held_share;
    }
    double total = 0;
    for (size_t p = 0; p < source.pods.size(); ++p) {
      const OpenbPod& pod = source.pods[p];
      if (!Samplable(pod) || pod.num_gpu > widest[model]) continue;
      plan.eligible.push_back(p);
      total += static_cast<double>(int64_t{pod.num_gpu} * pod.gpu_milli * SampledDuration(pod, options.max_duration_s));
    }
    if (plan.eligible.empty() || plan.target <= 0) continue;
    plan.mean_milli_seconds = total / static_cast<double>(plan.eligible.size());
    plans.push_back(std::move(plan));
  }
  return plans;
}

// One simulation of a flavor at one base rate; times count from the
// warm-up's start (trace second -max_duration_s).
struct FlavorRun {
  OpenbTrace trace;            // the flavor's nodes and its arrivals
  std::vector<size_t> source;  // per arrival: the trace pod it copies
  Placement placement;
  std::vector<std::pair<size_t, size_t>> holds_of;  // per arrival: [first, end) of its holds
  double rate_per_s = 0;
  double share = 0;  // held over the window's last day
};

OpenbPod CopyArrival(const OpenbPod& pod, const FlavorPlan& plan, int64_t at, int64_t duration, size_t serial) {
  OpenbPod copy = pod;
  copy.name = absl::StrFormat("%s-%09d", plan.model, serial);
  copy.gpu_spec = plan.model;
  copy.creation_s = at;
  copy.scheduled_s = at;
  copy.deletion_s = at + duration;
  return copy;
}

double RunShare(const FlavorRun& run, const FlavorPlan& plan, int64_t from_s, int64_t to_s) {
  double held = 0;
  for (const GpuHold& hold : run.placement.holds) {
    const int64_t end = std::min(hold.end_s.value_or(to_s), to_s);
    const int64_t begin = std::max(hold.start_s, from_s);
    if (end > begin) held += static_cast<double>(hold.milli) * static_cast<double>(end - begin);
  }
  return held / (static_cast<double>(plan.capacity_milli) * static_cast<double>(to_s - from_s));
}

FlavorRun SimulateFlavor(const OpenbTrace& source, const FlavorPlan& plan, const LoadSampleOptions& options,
                         double rate_per_s) {
  FlavorRun run;
  run.rate_per_s = rate_per_s;
  for (size_t n : plan.nodes) run.trace.nodes.push_back(source.nodes[n]);
  const int64_t warmup = options.max_duration_s;
  const int64_t total = warmup + options.window_s;
  const double shape_max = (1 + options.daily_amplitude) * (1 + options.weekly_amplitude) *
                           std::max(TrendFactor(options, -warmup), TrendFactor(options, options.window_s));
  SampleRandom random(FlavorSeed(options.seed, plan.model));
  double t = 0;
  while (true) {
    t += random.Exponential(rate_per_s * shape_max);
    if (t >= static_cast<double>(total)) break;
    const auto at = static_cast<int64_t>(t);
    // Thinning: a candidate at the highest rate is kept with the rate's share.
    if (random.Uniform() * shape_max > RateShape(options, at - warmup)) continue;
    const size_t picked = plan.eligible[random.Index(plan.eligible.size())];
    const OpenbPod& pod = source.pods[picked];
    run.trace.pods.push_back(
        CopyArrival(pod, plan, at, SampledDuration(pod, options.max_duration_s), run.trace.pods.size()));
    run.source.push_back(picked);
  }
  run.placement = PlaceNextFit(run.trace);
  // A pod's holds are consecutive (the placer appends them at once).
  run.holds_of.assign(run.trace.pods.size(), {0, 0});
  for (size_t h = 0; h < run.placement.holds.size(); ++h) {
    auto& [first, end] = run.holds_of[run.placement.holds[h].pod];
    if (first == end) first = h;
    end = h + 1;
  }
  const int64_t day = std::min(kSampleDayS, options.window_s);
  run.share = RunShare(run, plan, total - day, total);
  return run;
}

// Scales the rate until the last day's held share is within the tolerance of
// the target; keeps the closest run. A flavor that fragmentation or its size
// keeps below the target stops once more arrivals stop raising its share.
FlavorRun CalibrateFlavor(const OpenbTrace& source, const FlavorPlan& plan, const LoadSampleOptions& options) {
  double rate = plan.target * static_cast<double>(plan.capacity_milli) / plan.mean_milli_seconds;
  FlavorRun best = SimulateFlavor(source, plan, options, rate);
  double previous_share = best.share;
  for (int round = 1; round < options.max_rounds; ++round) {
    if (std::abs(best.share - plan.target) <= options.tolerance) break;
    const double factor = previous_share <= 0 ? 2.0 : std::clamp(plan.target / previous_share, 0.5, 2.0);
    rate *= factor;
    FlavorRun run = SimulateFlavor(source, plan, options, rate);
    const bool saturated = factor > 1 && run.share - previous_share < options.tolerance / 4;
    previous_share = run.share;
    if (std::abs(run.share - plan.target) < std::abs(best.share - plan.target)) best = std::move(run);
    if (saturated) break;
  }
  return best;
}

// A sampled pod as it ends up in the window, before it is named.
struct WindowPod {
  int64_t arrival_s = 0;  // trace seconds, may be negative (the warm-up)
  size_t flavor = 0;
  size_t local = 0;  // index into its flavor run
};

std::vector<WindowPod> PodsInWindow(const std::vector<FlavorRun>& runs, const LoadSampleOptions& options) {
  std::vector<WindowPod> pods;
  const int64_t warmup = options.max_duration_s;
  for (size_t f = 0; f < runs.size(); ++f) {
    const FlavorRun& run = runs[f];
    for (size_t i = 0; i < run.trace.pods.size(); ++i) {
      const OpenbPod& pod = run.trace.pods[i];
      const PodOutcome outcome = run.placement.outcomes[i];
      int64_t end = *pod.deletion_s - warmup;
      if (outcome == PodOutcome::kNoRoom) {
        end = pod.creation_s - warmup + std::min(*pod.deletion_s - pod.creation_s, options.max_wait_s);
      } else if (outcome != PodOutcome::kPlaced) {
        continue;
      }
      if (end <= 0) continue;  // over before the window opens
      pods.push_back({pod.creation_s - warmup, f, i});
    }
  }
  std::sort(pods.begin(), pods.end(), [](const WindowPod& a, const WindowPod& b) {
    return std::tie(a.arrival_s, a.flavor, a.local) < std::tie(b.arrival_s, b.flavor, b.local);
  });
  return pods;
}

std::optional<int64_t> UnlessAfter(int64_t end_s, int64_t window_s) {
  if (end_s > window_s) return std::nullopt;
  return end_s;
}

// The holds of a placed pod, moved into the window (clipped at its start).
void AddPlacedPod(const FlavorRun& run, const FlavorPlan& plan, size_t local, size_t index,
                  const LoadSampleOptions& options, SampledLoad& load) {
  const int64_t warmup = options.max_duration_s;
  OpenbPod& pod = load.trace.pods.back();
  const int64_t start = std::max<int64_t>(*pod.scheduled_s - warmup, 0);
  const std::optional<int64_t> end = UnlessAfter(*pod.deletion_s - warmup, options.window_s);
  pod.creation_s = std::max<int64_t>(pod.creation_s - warmup, 0);
  pod.scheduled_s = start;
  pod.deletion_s = end;
  pod.phase = end.has_value() ? "Succeeded" : "Running";
  for (size_t h = run.holds_of[local].first; h < run.holds_of[local].second; ++h) {
    const GpuHold& hold = run.placement.holds[h];
    load.placement.holds.push_back({index, plan.nodes[hold.node], hold.gpu, hold.milli, start, end});
  }
  load.placement.outcomes.push_back(PodOutcome::kPlaced);
  ++load.placement.placed_pods;
}

void AddWaitingPod(size_t index, const LoadSampleOptions& options, SampledLoad& load) {
  const int64_t warmup = options.max_duration_s;
  OpenbPod& pod = load.trace.pods.back();
  const int64_t arrival = pod.creation_s - warmup;
  const int64_t gave_up = arrival + std::min(*pod.deletion_s - pod.creation_s, options.max_wait_s);
  pod.creation_s = std::max<int64_t>(arrival, 0);
  pod.scheduled_s = std::nullopt;
  pod.deletion_s = UnlessAfter(gave_up, options.window_s);
  pod.phase = "Pending";
  load.waits.push_back({index, pod.creation_s, pod.deletion_s});
  load.placement.outcomes.push_back(PodOutcome::kNoRoom);
  load.placement.unplaced.push_back(index);
}

SampledLoad MergeRuns(const OpenbTrace& source, const std::vector<FlavorPlan>& plans,
                      const std::vector<FlavorRun>& runs, const LoadSampleOptions& options) {
  SampledLoad load;
  load.trace.nodes = source.nodes;
  for (const WindowPod& window_pod : PodsInWindow(runs, options)) {
    const FlavorRun& run = runs[window_pod.flavor];
    const size_t index = load.trace.pods.size();
    load.trace.pods.push_back(run.trace.pods[window_pod.local]);
    load.trace.pods.back().name = absl::StrFormat("openb-pod-%07d", index);
    load.source.push_back(run.source[window_pod.local]);
    if (run.placement.outcomes[window_pod.local] == PodOutcome::kPlaced) {
      AddPlacedPod(run, plans[window_pod.flavor], window_pod.local, index, options, load);
    } else {
      AddWaitingPod(index, options, load);
    }
  }
  return load;
}

void ReportFlavors(const std::vector<FlavorPlan>& plans, const std::vector<FlavorRun>& runs,
                   const LoadSampleOptions& options, SampledLoad& load) {
  const int64_t day = std::min(kSampleDayS, options.window_s);
  std::map<std::string, FlavorOutcome> by_model;
  for (size_t f = 0; f < plans.size(); ++f) {
    FlavorOutcome& outcome = by_model[plans[f].model];
    outcome.model = plans[f].model;
    outcome.capacity_milli = plans[f].capacity_milli;
    outcome.target = plans[f].target;
    outcome.arrivals_per_hour = runs[f].rate_per_s * 3600;
    outcome.held_share_last_day = HeldShare(load, plans[f].model, options.window_s - day, options.window_s);
    outcome.held_share_now = HeldShare(load, plans[f].model, options.window_s - 60, options.window_s);
  }
  for (size_t p = 0; p < load.trace.pods.size(); ++p) ++by_model[load.trace.pods[p].gpu_spec].pods;
  for (const PendingWait& wait : load.waits) {
    FlavorOutcome& outcome = by_model[load.trace.pods[wait.pod].gpu_spec];
    ++outcome.waits;
    if (!wait.to_s.has_value()) ++outcome.waiting_now;
  }
  for (auto& [model, outcome] : by_model) load.flavors.push_back(outcome);
}

// One node in `stride` of each model, in name order, the first included;
// kept in the trace's order.
std::vector<OpenbNode> KeptNodes(const std::vector<OpenbNode>& nodes, int stride) {
  std::map<std::string, std::vector<size_t>> by_model;
  for (size_t n = 0; n < nodes.size(); ++n) by_model[nodes[n].model].push_back(n);
  std::vector<bool> kept(nodes.size(), false);
  for (auto& [model, indices] : by_model) {
    std::stable_sort(indices.begin(), indices.end(), [&](size_t a, size_t b) { return nodes[a].name < nodes[b].name; });
    for (size_t i = 0; i < indices.size(); i += static_cast<size_t>(stride)) kept[indices[i]] = true;
  }
  std::vector<OpenbNode> out;
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (kept[n]) out.push_back(nodes[n]);
  }
  return out;
}

absl::Status CheckSampleOptions(const LoadSampleOptions& options) {
  if (options.window_s < 3600 || options.window_s > 400 * kSampleDayS) {
    return absl::InvalidArgumentError("window: must be within 1 hour..400 days");
  }
  for (const FlavorTarget& target : options.targets) {
    if (!(target.held_share > 0 && target.held_share <= 1)) {
      return absl::InvalidArgumentError(absl::StrCat("target of ", target.model, ": must be within (0, 1]"));
    }
  }
  if (!(options.default_share >= 0 && options.default_share <= 1)) {
    return absl::InvalidArgumentError("default share: must be within [0, 1]");
  }
  if (!(options.daily_amplitude >= 0 && options.daily_amplitude < 1 && options.weekly_amplitude >= 0 &&
        options.weekly_amplitude < 1)) {
    return absl::InvalidArgumentError("seasonal amplitudes: must be within [0, 1)");
  }
  if (!(std::abs(options.trend_per_30_days) <= 1)) return absl::InvalidArgumentError("trend: must be within [-1, 1]");
  if (options.max_duration_s < 60 || options.max_duration_s > 400 * kSampleDayS || options.max_wait_s < 60) {
    return absl::InvalidArgumentError("max duration and max wait: at least a minute, a duration at most 400 days");
  }
  if (options.node_stride < 1) return absl::InvalidArgumentError("node stride: must be at least 1");
  if (!(options.tolerance > 0) || options.max_rounds < 1) {
    return absl::InvalidArgumentError("calibration: tolerance above 0 and at least one round");
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<FlavorTarget> DefaultDemoTargets() {
  return {{"G2", 0.78}, {"T4", 0.75}, {"G3", 0.70}, {"P100", 0.65}, {"V100M16", 0.60}, {"V100M32", 0.92}, {"A10", 0.5}};
}

absl::StatusOr<SampledLoad> SampleLoad(const OpenbTrace& source, const LoadSampleOptions& options) {
  if (absl::Status status = CheckSampleOptions(options); !status.ok()) return status;
  OpenbTrace fleet;
  fleet.nodes = KeptNodes(source.nodes, options.node_stride);
  fleet.pods = source.pods;
  const std::vector<FlavorPlan> plans = PlanFlavors(fleet, options);
  if (plans.empty()) return absl::InvalidArgumentError("trace: no pod asking for GPUs fits on a node of it");
  std::vector<FlavorRun> runs;
  runs.reserve(plans.size());
  for (const FlavorPlan& plan : plans) runs.push_back(CalibrateFlavor(fleet, plan, options));
  SampledLoad load = MergeRuns(fleet, plans, runs, options);
  ReportFlavors(plans, runs, options, load);
  return load;
}

double HeldShare(const SampledLoad& load, const std::string& model, int64_t from_s, int64_t to_s) {
  if (to_s <= from_s) return 0;
  int64_t capacity_milli = 0;
  for (const OpenbNode& node : load.trace.nodes) {
    if (node.model == model && node.gpus > 0) capacity_milli += int64_t{node.gpus} * 1000;
  }
  if (capacity_milli == 0) return 0;
  double held = 0;
  for (const GpuHold& hold : load.placement.holds) {
    if (load.trace.nodes[hold.node].model != model) continue;
    const int64_t end = std::min(hold.end_s.value_or(to_s), to_s);
    const int64_t begin = std::max(hold.start_s, from_s);
    if (end > begin) held += static_cast<double>(hold.milli) * static_cast<double>(end - begin);
  }
  return held / (static_cast<double>(capacity_milli) * static_cast<double>(to_s - from_s));
}

}  // namespace fleetcap::openb
