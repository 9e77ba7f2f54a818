#pragma once
// The openb trace at a realistic load. Replayed at its recorded times the
// trace holds at most ~1% of its cluster's GPUs; its paper (USENIX ATC '23,
// "Beware of Fragmentation", section 6.1) instead inflates the workload by
// Monte-Carlo sampling of the trace's pods until the requests reach a share
// of the cluster's capacity. This does the same, deterministically from a
// seed, over a window that ends at a given instant:
//
//  - The nodes are the trace's: all of them, or one in `node_stride` of each
//    model (in name order, the first included), a smaller cluster of the
//    same mix. Each GPU model is a flavor with a target held share (of its
//    GPUs' milli-devices).
//  - Per flavor, pods arrive as a Poisson process whose rate has a daily and a
//    weekly season (peaks at 14:00 UTC and on Wednesday) and a slow upward
//    trend, scaled so that the share held over the window's last day reaches
//    the target (a few rounds of calibration, same seed each round).
//  - Each arrival copies a pod of the trace drawn uniformly among those that
//    fit on one node of the flavor: its GPU count, GPU share, CPU, memory and
//    run time (at most `max_duration_s`). The trace's gpu_spec is empty, so
//    the flavor is the sampled pod's model constraint (its gpu_spec).
//  - Each flavor is placed by the replay's next-fit placer
//    (next_fit_placer.h) on its own nodes. Arrivals start `max_duration_s`
//    before the window so that it opens on a loaded cluster; a pod running
//    when the window opens starts with it, one ended before is left out.
//  - A pod that finds no room waits as pending demand from its arrival for
//    its run time (at most `max_wait_s`) and is then deleted; one still
//    waiting at the window's end is pending now. A pod placed and running at
//    the window's end holds its GPUs open-ended.
//
// Pods are named openb-pod-NNNNNNN in arrival order, so their teams derive
// as every replayed pod's do (openb_team.h). Pure code: the instants come
// from the caller.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_trace.h"

namespace fleetcap::openb {

struct FlavorTarget {
  std::string model;
  double held_share = 0;  // 0..1 of the model's GPUs
};

struct LoadSampleOptions {
  uint64_t seed = 1;
  int64_t start_unix_s = 0;           // the instant of trace second 0 (phases the seasons)
  int64_t window_s = 14 * 86400;      // the window [0, window_s); window_s is "now"
  int node_stride = 1;                // keep one node in this many of each model
  std::vector<FlavorTarget> targets;  // a model not listed gets `default_share`
  double default_share = 0.6;
  double daily_amplitude = 0.3;        // rate x (1 + a cos(2 pi (t - 14:00) / day))
  double weekly_amplitude = 0.15;      // rate x (1 + a cos(2 pi (t - Wednesday noon) / week))
  double trend_per_30_days = 0.10;     // the rate grows by this share every 30 days
  int64_t max_duration_s = 7 * 86400;  // a sampled pod runs at most this long
  int64_t max_wait_s = 6 * 3600;       // a pod that found no room waits at most this long
  double tolerance = 0.02;             // calibration stops within this of the target share
  int max_rounds = 8;
};

// The default targets of `make demo` (docs/replay.md).
std::vector<FlavorTarget> DefaultDemoTargets();

// A pod that found no room: waiting [from_s, to_s), to_s absent while it
// still waits at the window's end.
struct PendingWait {
  size_t pod = 0;  // index into SampledLoad::trace.pods
  int64_t from_s = 0;
  std::optional<int64_t> to_s;
};

struct FlavorOutcome {
  std::string model;
  int64_t capacity_milli = 0;
  double target = 0;
  double held_share_last_day = 0;  // mean over the window's last 24 hours
  double held_share_now = 0;       // at the window's end
  double arrivals_per_hour = 0;    // the calibrated base rate
  int64_t pods = 0;                // in the window (placed or waiting)
  int64_t waits = 0;               // of which found no room
  int64_t waiting_now = 0;
};

struct SampledLoad {
  OpenbTrace trace;                    // the nodes kept, the sampled pods
  Placement placement;                 // indices into `trace`
  std::vector<PendingWait> waits;      // by pod index
  std::vector<size_t> source;          // per sampled pod: the trace pod it copies
  std::vector<FlavorOutcome> flavors;  // by model name
};

// INVALID_ARGUMENT naming the option when one is out of range, or when the
// trace has no pod that asks for GPUs.
absl::StatusOr<SampledLoad> SampleLoad(const OpenbTrace& source, const LoadSampleOptions& options);

// The mean share of `model`'s GPUs held over [from_s, to_s), from `load`.
double HeldShare(const SampledLoad& load, const std::string& model, int64_t from_s, int64_t to_s);

}  // namespace fleetcap::openb
