#include "optimizer/insights/waste_summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace fleetcap::insights {

void WasteTally::Add(const WorkloadHour& h) {
  held_milli_seconds += h.held_milli_seconds;
  observed_milli_seconds += h.observed_milli_seconds;
  active_milli_seconds += h.active_milli_seconds;
  sm_observed_milli_seconds += h.sm_observed_milli_seconds;
  both_minutes += h.both_minutes;
  both_held_milli_seconds += h.both_held_milli_seconds;
  both_duty_milli_seconds += h.both_duty_milli_seconds;
  both_sm_milli_seconds += h.both_sm_milli_seconds;
}

void WasteTally::Add(const IdleRun& r) {
  wasted_milli_seconds += r.wasted_milli_seconds;
  wasted_cost_micro += r.wasted_cost_micro;
  ++run_count;
}

void WasteTally::Add(const WasteTally& t) {
  held_milli_seconds += t.held_milli_seconds;
  observed_milli_seconds += t.observed_milli_seconds;
  active_milli_seconds += t.active_milli_seconds;
  sm_observed_milli_seconds += t.sm_observed_milli_seconds;
  both_minutes += t.both_minutes;
  both_held_milli_seconds += t.both_held_milli_seconds;
  both_duty_milli_seconds += t.both_duty_milli_seconds;
  both_sm_milli_seconds += t.both_sm_milli_seconds;
  wasted_milli_seconds += t.wasted_milli_seconds;
  wasted_cost_micro += t.wasted_cost_micro;
  run_count += t.run_count;
}

double WasteTally::Efficiency() const {
  if (observed_milli_seconds <= 0) return 0;
  return static_cast<double>(active_milli_seconds) / static_cast<double>(observed_milli_seconds);
}

std::string WasteTally::Signal() const {
  if (observed_milli_seconds <= 0) return "";
  if (sm_observed_milli_seconds == 0) return kSignalDuty;
  return sm_observed_milli_seconds >= observed_milli_seconds ? kSignalSm : kSignalMixed;
}

bool WasteTally::BusyButLight() const {
  if (both_minutes < kBusyButLightMinMinutes || both_held_milli_seconds <= 0) return false;
  // Both means are over the same held time: the device-minutes read with both signals.
  const double held = static_cast<double>(both_held_milli_seconds);
  return static_cast<double>(both_duty_milli_seconds) / held >= kBusyDutyCycle &&
         static_cast<double>(both_sm_milli_seconds) / held < kLightSmActivity;
}

namespace {

template <typename Row>
bool MoreWasted(const Row& a, const Row& b) {
  return std::make_tuple(-a.tally.wasted_cost_micro, -a.tally.wasted_milli_seconds) <
         std::make_tuple(-b.tally.wasted_cost_micro, -b.tally.wasted_milli_seconds);
}

bool Longer(const IdleRun& a, const IdleRun& b) {
  return std::make_tuple(a.start - a.end, -a.wasted_cost_micro, a.cluster, a.pod_uid, a.start) <
         std::make_tuple(b.start - b.end, -b.wasted_cost_micro, b.cluster, b.pod_uid, b.start);
}

}  // namespace

WasteSummary Summarize(const WasteFacts& facts) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, WorkloadWaste> workloads;
  for (const WorkloadHour& h : facts.workload_hours) {
    WorkloadWaste& w = workloads[{h.team, h.namespace_name, h.workload}];
    w.tally.Add(h);
  }
  for (const IdleRun& r : facts.runs) {
    WorkloadWaste& w = workloads[{r.team, r.namespace_name, r.workload}];
    w.tally.Add(r);
    w.runs.push_back(r);
  }
  std::vector<WorkloadWaste> summed;
  for (auto& [key, w] : workloads) {
    std::tie(w.team, w.namespace_name, w.workload) = key;
    std::sort(w.runs.begin(), w.runs.end(), Longer);
    summed.push_back(std::move(w));
  }
  return SummarizeWorkloads(std::move(summed));
}

WasteSummary SummarizeWorkloads(std::vector<WorkloadWaste> workloads) {
  // By (team, namespace, workload) first, so that equal waste keeps that order.
  std::sort(workloads.begin(), workloads.end(), [](const WorkloadWaste& a, const WorkloadWaste& b) {
    return std::tie(a.team, a.namespace_name, a.workload) < std::tie(b.team, b.namespace_name, b.workload);
  });
  std::map<std::string, TeamWaste> teams;
  WasteSummary out;
  for (WorkloadWaste& w : workloads) {
    TeamWaste& t = teams[w.team];
    t.team = w.team;
    t.tally.Add(w.tally);
    out.fleet.Add(w.tally);
    out.workloads.push_back(std::move(w));
  }
  for (auto& [name, t] : teams) out.teams.push_back(std::move(t));
  std::stable_sort(out.workloads.begin(), out.workloads.end(), MoreWasted<WorkloadWaste>);
  std::stable_sort(out.teams.begin(), out.teams.end(), MoreWasted<TeamWaste>);
  return out;
}

void AddRuns(std::vector<IdleRun> runs, WasteSummary* summary) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, WorkloadWaste*> by_key;
  for (WorkloadWaste& w : summary->workloads) by_key[{w.team, w.namespace_name, w.workload}] = &w;
  std::set<WorkloadWaste*> added;
  for (IdleRun& r : runs) {
    auto it = by_key.find({r.team, r.namespace_name, r.workload});
    if (it == by_key.end()) continue;
    it->second->runs.push_back(std::move(r));
    added.insert(it->second);
  }
  for (WorkloadWaste* w : added) std::sort(w->runs.begin(), w->runs.end(), Longer);
}

std::vector<IdleRun> JoinRuns(std::vector<IdleRun> pieces) {
  std::vector<IdleRun> runs;
  for (IdleRun& p : pieces) {
    if (runs.empty() || runs.back().cluster != p.cluster || runs.back().pod_uid != p.pod_uid ||
        runs.back().end != p.start) {
      runs.push_back(std::move(p));
      continue;
    }
    IdleRun& r = runs.back();
    r.end = p.end;
    r.devices_milli = std::max(r.devices_milli, p.devices_milli);
    r.wasted_milli_seconds += p.wasted_milli_seconds;
    r.wasted_cost_micro += p.wasted_cost_micro;
    r.activity_milli_seconds += p.activity_milli_seconds;
    r.sm_milli_seconds += p.sm_milli_seconds;
    r.pieces.insert(r.pieces.end(), p.pieces.begin(), p.pieces.end());
  }
  return runs;
}

}  // namespace fleetcap::insights
