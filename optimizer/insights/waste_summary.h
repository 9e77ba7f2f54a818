#pragma once
// The waste engine's findings summed per workload, per team and for the
// fleet (docs/insights.md, "Waste" and "Efficiency"). Every total is a sum of
// runs or of workload hours, so totals add up: the same code sums what the
// engine found and what the store gives back for a window.

#include <cstdint>
#include <string>
#include <vector>

#include "optimizer/insights/waste_facts.h"

namespace fleetcap::insights {

// A workload is busy but light when, over at least this many device-minutes
// read with both signals, its mean duty cycle is at least kBusyDutyCycle
// while its mean SM activity is below kLightSmActivity: kernels run most of
// the time, yet use a fifth of the GPU or less.
inline constexpr int64_t kBusyButLightMinMinutes = 60;
inline constexpr double kBusyDutyCycle = 0.5;
inline constexpr double kLightSmActivity = 0.2;

// Held, observed, active and wasted device time (milli-devices x seconds)
// and wasted money (micro-units) of a workload, a team or the fleet.
struct WasteTally {
  int64_t held_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;
  int64_t active_milli_seconds = 0;
  int64_t sm_observed_milli_seconds = 0;
  int64_t both_minutes = 0;
  int64_t both_held_milli_seconds = 0;
  int64_t both_duty_milli_seconds = 0;
  int64_t both_sm_milli_seconds = 0;
  int64_t wasted_milli_seconds = 0;
  int64_t wasted_cost_micro = 0;
  int64_t run_count = 0;

  void Add(const WorkloadHour& h);
  void Add(const IdleRun& r);
  void Add(const WasteTally& t);

  // Held time without a reading: unknown, never idle.
  int64_t UnknownMilliSeconds() const { return held_milli_seconds - observed_milli_seconds; }
  // Active over observed held time, 0..1; 0 when nothing was observed.
  double Efficiency() const;
  // The signal the efficiency stands on: kSignalSm, kSignalDuty, kSignalMixed,
  // or "" when nothing was observed.
  std::string Signal() const;
  bool BusyButLight() const;
};

struct WorkloadWaste {
  std::string team;
  std::string namespace_name;
  std::string workload;
  WasteTally tally;
  std::vector<IdleRun> runs;  // the longest first
};

struct TeamWaste {
  std::string team;
  WasteTally tally;
};

struct WasteSummary {
  std::vector<WorkloadWaste> workloads;  // every workload that held a device, the most wasted money first
  std::vector<TeamWaste> teams;          // likewise per team
  WasteTally fleet;
};

WasteSummary Summarize(const WasteFacts& facts);

// The same from workloads already summed (each with its tally; runs, if
// any, the longest first): their teams and the fleet added up, the most
// wasted first.
WasteSummary SummarizeWorkloads(std::vector<WorkloadWaste> workloads);

// Gives each run to its workload in `summary` (by team, namespace and
// workload; a run of a workload not there is dropped), each workload's runs
// then the longest first; the tallies are left as they are.
void AddRuns(std::vector<IdleRun> runs, WasteSummary* summary);

// Runs stored in pieces, one per pod and hour, made whole again: each piece
// comes as a run of its own, and those of one pod that follow one another
// without a gap are one run (two runs of a pod never touch). `pieces` must
// be ordered by (cluster, pod_uid, start).
std::vector<IdleRun> JoinRuns(std::vector<IdleRun> pieces);

}  // namespace fleetcap::insights
