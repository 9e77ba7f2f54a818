#pragma once
// What the waste engine reads and what it finds (docs/insights.md, "Waste"
// and "Efficiency"): plain facts, loaded by whoever calls it (the optimizer's
// waste pass from the store, tests from case files). Times are UTC; holds are
// exact to the second, readings are per minute; intervals are half-open.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "policy/policy_document.h"

namespace fleetcap::insights {

// A pod holding part of a device, with the team the chargeback gave it and
// the device's model. `milli` is the fraction held: 1000 a whole device, a
// MIG 3g.40gb slice of 7 is 428, a time-sliced replica of 4 is 250.
struct WasteHold {
  std::string cluster;
  std::string pod_uid;
  std::string namespace_name;
  std::string team;
  std::string workload;
  std::string device_id;
  std::string model;
  int64_t milli = 0;
  absl::Time from;
  absl::Time to = absl::InfiniteFuture();
};

// A pod's reading of one device over the minute that starts at `minute`:
// the duty cycle (util_mean, the share of time a kernel ran) and, where the
// exporter sends it, SM activity (the share of the SMs busy), both 0..1. A
// minute without a reading is unknown.
struct ActivityReading {
  std::string cluster;
  std::string pod_uid;
  std::string device_id;
  absl::Time minute;
  std::optional<double> duty_cycle;
  std::optional<double> sm_active;
};

struct WasteInput {
  // The window the findings are for: whole UTC hours, start < end.
  absl::Time start;
  absl::Time end;
  // Where runs are looked for from, a whole minute at or before `start`: a
  // run that crosses `start` is judged (long enough or not) and rounded whole.
  absl::Time history_from;
  std::vector<WasteHold> holds;
  std::vector<ActivityReading> readings;
  std::vector<policy::Price> prices;
  policy::InsightOptions options;
};

// The part of an idle run inside one UTC hour.
struct RunPiece {
  absl::Time hour;
  absl::Time start;
  absl::Time end;
  int64_t devices_milli = 0;           // the most held at once in the piece
  int64_t wasted_milli_seconds = 0;    // held device time, milli-devices x seconds
  int64_t wasted_cost_micro = 0;       // its share of the run's cost (largest remainder)
  int64_t activity_milli_seconds = 0;  // held time x activity, rounded: mean = this / wasted
  int64_t sm_milli_seconds = 0;        // the held time whose activity was SM activity
};

inline constexpr const char* kSignalSm = "sm_active";
inline constexpr const char* kSignalDuty = "duty_cycle";
inline constexpr const char* kSignalMixed = "mixed";

// A pod's consecutive minutes in which every device it held read below
// `idle_below`, lasting at least `idle_for`, clipped to the window. Its
// figures are the sums of its pieces.
struct IdleRun {
  std::string cluster;
  std::string pod_uid;
  std::string namespace_name;
  std::string team;
  std::string workload;
  std::string model;  // the held devices' models, sorted, comma-separated
  // The run's first idle minute as found, which may lie before the window:
  // with (cluster, pod_uid) the run's key.
  absl::Time run_start;
  absl::Time start;  // clipped to the window
  absl::Time end;
  int64_t devices_milli = 0;
  int64_t wasted_milli_seconds = 0;
  int64_t wasted_cost_micro = 0;
  int64_t activity_milli_seconds = 0;
  int64_t sm_milli_seconds = 0;
  std::vector<RunPiece> pieces;  // its UTC hours inside the window, in order

  double MeanActivity() const;
  // kSignalSm, kSignalDuty, or kSignalMixed when SM activity was read for
  // part of the run only.
  std::string Signal() const;
};

// One workload's held device time in one UTC hour and how much of it was
// observed and active: what efficiency and unknown time are summed from.
struct WorkloadHour {
  std::string cluster;
  std::string team;
  std::string namespace_name;
  std::string workload;
  absl::Time hour;
  int64_t held_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;     // with a reading; the rest is unknown
  int64_t active_milli_seconds = 0;       // observed x activity (SM where read), rounded
  int64_t sm_observed_milli_seconds = 0;  // observed with SM activity
  // Device-minutes read with both signals, and their held time x each: what
  // `busy_but_light` is judged on.
  int64_t both_minutes = 0;
  int64_t both_held_milli_seconds = 0;
  int64_t both_duty_milli_seconds = 0;
  int64_t both_sm_milli_seconds = 0;
};

struct WasteFacts {
  std::vector<IdleRun> runs;                 // by (cluster, pod_uid, start)
  std::vector<WorkloadHour> workload_hours;  // by (cluster, team, namespace, workload, hour)
};

}  // namespace fleetcap::insights
