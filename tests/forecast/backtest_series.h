#pragma once
// The real series the forecast engine is backtested on (docs/forecast.md,
// "Backtest"), derived at run time from the published traces, never copied:
//  - openb: GPUs held per GPU model per hour, from the pod list placed on the
//    node list by the replay's next-fit contract (ingest/openb/next_fit_placer.h);
//  - genai: GPU duty cycle in 5-minute means, the fleet's and each pod's that
//    spans the whole trace.

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace fleetcap::testing {

struct NamedSeries {
  std::string name;  // "openb/T4", "genai/fleet", "genai/pod-1a2b3c4d"
  std::vector<double> values;
};

// Mean GPUs held in each whole hour of the trace's observed window (from its
// first deletion to its end, about 34 days; the partial last hour is left
// out), per model of the node the pod was placed on. `openb_dir` holds the node list and openb_pod_list_default.csv.
absl::StatusOr<std::vector<NamedSeries>> OpenbHeldGpusByModel(const std::string& openb_dir);

// The demo's fleet (`make demo`: the openb trace sampled at a realistic load,
// ingest/openb/sampled_load.h, with the demo's seed, targets and one node in
// 40 of each model) over `days` days from a Monday 00:00 UTC: mean GPUs held
// per model in each hour of the window, "demo/<model>".
absl::StatusOr<std::vector<NamedSeries>> DemoFleetHeldGpusByModel(const std::string& openb_dir, int days);
inline constexpr int kDemoBacktestDays = 35;

inline constexpr int kGenaiBucketSeconds = 300;
inline constexpr int kGenaiReadingSeconds = 60;  // the trace's cadence: a bucket holds five readings

// 5-minute means of pod_gpu_duty_cycle_anon.csv (read from the .tar.gz with
// tar): first the fleet's mean over every reading in the bucket, then one
// series per pod whose readings span at least `min_pod_hours`; a bucket a pod
// has no reading in repeats its previous mean. Only whole buckets: a last
// bucket the readings end inside is left out.
absl::StatusOr<std::vector<NamedSeries>> GenaiDutyCycle(const std::string& tar_gz_path, double min_pod_hours);

}  // namespace fleetcap::testing
