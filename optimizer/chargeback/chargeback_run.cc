#include "optimizer/chargeback/chargeback_run.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/attribution/attribution_engine.h"
#include "optimizer/attribution/price_schedule.h"
#include "optimizer/chargeback/fixed_lines.h"
#include "optimizer/chargeback/hours.h"
#include "optimizer/chargeback/line_record.h"

namespace fleetcap::chargeback {
namespace {

// The price of a timeline at Unix second `t`; -1 where none is in force.
int64_t PriceAt(const std::vector<attribution::PricePeriod>& timeline, int64_t t) {
  for (const auto& p : timeline) {
    if (p.from <= t && t < p.to) return p.micro_per_device_hour;
  }
  return -1;
}

// The earliest second at which a device of `model` in `cluster` costs differently.
std::optional<int64_t> FirstDifference(const std::vector<policy::Price>& a, const std::vector<policy::Price>& b,
                                       const std::string& model, const std::string& cluster) {
  const auto ta = attribution::PriceTimeline(a, model, cluster);
  const auto tb = attribution::PriceTimeline(b, model, cluster);
  std::set<int64_t> points;
  for (const auto* timeline : {&ta, &tb}) {
    for (const auto& p : *timeline) points.insert({p.from, p.to});
  }
  for (const int64_t t : points) {
    if (t < attribution::kForever && PriceAt(ta, t) != PriceAt(tb, t)) return t;
  }
  return std::nullopt;
}

}  // namespace

absl::Time EarliestChange(const policy::PolicyDocument& older, const policy::PolicyDocument& newer,
                          absl::Time newer_from) {
  absl::Time earliest = newer_from;
  std::set<std::pair<std::string, std::string>> priced;  // (model, cluster)
  for (const auto* prices : {&older.prices, &newer.prices}) {
    for (const auto& p : *prices) priced.insert({p.model, p.cluster});
  }
  for (const auto& [model, cluster] : priced) {
    if (auto t = FirstDifference(older.prices, newer.prices, model, cluster); t.has_value()) {
      earliest = std::min(earliest, absl::FromUnixSeconds(*t));
    }
  }
  return earliest;
}

namespace {

absl::Status CheckHours(const char* what, absl::Time start, absl::Time end) {
  if (!IsHour(start) || !IsHour(end) || !(start < end)) {
    return absl::InvalidArgumentError(absl::StrCat(what, " [", FormatRfc3339(start), ", ", FormatRfc3339(end),
                                                   "): must be whole hours, start before end"));
  }
  return absl::OkStatus();
}

std::vector<absl::Time> HoursBetween(absl::Time from, absl::Time to) {
  std::vector<absl::Time> hours;
  for (absl::Time h = from; h < to; h += absl::Hours(1)) hours.push_back(h);
  return hours;
}

}  // namespace

absl::StatusOr<HoursReport> ChargebackRun::ComputeHours(absl::Time start, absl::Time end) {
  FLEETCAP_RETURN_IF_ERROR(CheckHours("hours to compute", start, end));
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> clusters, Clusters());
  HoursReport report;
  for (const auto& cluster : clusters) {
    FLEETCAP_ASSIGN_OR_RETURN(HoursReport computed, ComputeClusterHours(cluster, start, end));
    Accumulate(computed, &report);
  }
  FLEETCAP_ASSIGN_OR_RETURN(HoursReport fixed, ComputeFixedHours(start, end));
  Accumulate(fixed, &report);
  report.hours = (end - start) / absl::Hours(1);
  return report;
}

absl::StatusOr<HoursReport> ChargebackRun::ComputeClusterHours(const std::string& cluster, absl::Time start,
                                                               absl::Time end) {
  FLEETCAP_RETURN_IF_ERROR(CheckHours("hours to compute", start, end));
  FLEETCAP_RETURN_IF_ERROR(stores_.rollups->RollUp(cluster, start, end));
  FLEETCAP_ASSIGN_OR_RETURN(LoadedWindow window, LoadClusterWindow(stores_.sources, cluster, start, end));

  // The cluster is replaced, lines or not, so that stale lines vanish. The
  // engine's `fixed` lines of this cluster alone are not the fleet's: left out.
  store::ChargebackHours hours;
  HoursReport report;
  report.hours = (end - start) / absl::Hours(1);
  std::vector<attribution::RejectedFact> rejected;
  for (const WindowPiece& piece : window.pieces) {
    FLEETCAP_ASSIGN_OR_RETURN(attribution::AttributionReport engine,
                              attribution::Attribute(piece.input, *window.teams, [&](attribution::HourLines&& hour) {
                                for (auto& line : hour.lines) {
                                  if (line.cluster != cluster) continue;
                                  report.total_cost_micro += line.total_cost_micro;
                                  hours.lines.push_back(RecordOf(std::move(line)));
                                }
                                for (auto& device : hour.devices) {
                                  if (device.cluster == cluster)
                                    hours.devices.push_back(RecordOf(hour.hour, std::move(device)));
                                }
                              }));
    for (auto& o : engine.over_held) {
      hours.over_held.push_back({o.cluster, o.device_id, o.from, o.to, o.held_milli, std::move(o.pod_uids)});
      ++report.over_held_spans;
    }
    for (const auto& u : engine.unpriced) report.unpriced_device_seconds += u.device_seconds;
    rejected.insert(rejected.end(), engine.rejected.begin(), engine.rejected.end());
  }
  report.lines = static_cast<int64_t>(hours.lines.size());
  FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->ReplaceHours(cluster, start, end, hours));
  report.rejected_facts = static_cast<int64_t>(rejected.size());
  const std::string window_text =
      absl::StrCat("[", FormatRfc3339(start), ", ", FormatRfc3339(end), ") of cluster ", cluster);
  if (!rejected.empty()) {
    Logger("optimizer")
        ->warn("hours {}: {} facts left out, e.g. {}: {}", window_text, rejected.size(), rejected[0].fact,
               rejected[0].reason);
  }
  if (report.unpriced_device_seconds > 0) {
    Logger("optimizer")
        ->warn("hours {}: {} device-seconds in service with no price cost nothing", window_text,
               report.unpriced_device_seconds);
  }
  if (report.over_held_spans > 0) {
    Logger("optimizer")
        ->warn("hours {}: {} over-held device spans (see chargeback_over_held)", window_text, report.over_held_spans);
  }
  Logger("optimizer")
      ->debug("computed hours {}: {} lines, {} micro-units", window_text, report.lines, report.total_cost_micro);
  return report;
}

absl::StatusOr<HoursReport> ChargebackRun::ComputeFixedHours(absl::Time start, absl::Time end) {
  FLEETCAP_RETURN_IF_ERROR(CheckHours("hours of fixed lines to compute", start, end));
  FLEETCAP_RETURN_IF_ERROR(stores_.sources.policies()->Refresh());
  // What every team was charged each hour on its workload lines, all clusters.
  store::ChargebackFilter filter;
  filter.start = start;
  filter.end = end;
  filter.line_kind = "workload";
  store::ChargebackGroupBy by_team;
  by_team.team = true;
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<store::ChargebackSum> sums,
                            stores_.charges->Lines(filter, by_team, store::ChargebackResolution::kHour));
  std::map<absl::Time, std::map<std::string, int64_t>> charged;  // hour -> team -> charge
  for (const auto& s : sums) charged[s.start][s.team] += s.total_cost_micro;

  HoursReport report;
  std::vector<store::ChargebackLineRecord> lines;
  for (absl::Time hour = start; hour < end; hour += absl::Hours(1)) {
    const policy::PolicyInForce in_force = stores_.sources.policies()->At(hour);
    for (auto& line : FixedLines(hour, in_force.teams->policy().attribution, charged[hour])) {
      report.total_cost_micro += line.total_cost_micro;
      lines.push_back(std::move(line));
    }
  }
  report.lines = static_cast<int64_t>(lines.size());
  FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->ReplaceHours(kFleet, start, end, lines, {}));
  return report;
}

absl::StatusOr<std::vector<std::string>> ChargebackRun::Clusters() const {
  FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
  std::vector<std::string> names;
  for (const auto& c : clusters) names.push_back(c.cluster);
  std::sort(names.begin(), names.end());
  return names;
}

PassReport ChargebackRun::BeginPass() const {
  PassReport report;
  report.now = clock_->Now();
  report.closed_through = ClosedThrough(report.now, options_.close_delay);
  return report;
}

absl::Status ChargebackRun::MarkPolicyChanges(PassReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(const int32_t last, stores_.state->LastPolicyVersion());
  FLEETCAP_RETURN_IF_ERROR(stores_.sources.policies()->Refresh());
  const std::vector<policy::PolicyInForce> versions =
      stores_.sources.policies()->During(absl::InfinitePast(), absl::InfiniteFuture());
  const int32_t newest = versions.empty() ? 0 : versions.back().version;
  if (newest <= last) return absl::OkStatus();
  // Each cluster's hours up to the closed hour, not only to its watermark:
  // another instance may be computing a batch of it with the older version
  // right now, and advance its watermark past the hours marked. A mark at or
  // past the cluster's watermark when its pass takes it is left to the
  // catch-up, which reads the new version. The fleet's own hours are marked
  // up to its watermark: only this instance, holding the fleet lock, moves it.
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> clusters, Clusters());
  std::vector<std::string> computed;  // the clusters with hours computed
  for (const std::string& name : clusters) {
    FLEETCAP_ASSIGN_OR_RETURN(const auto w, stores_.chargeback->Watermark(name));
    if (w.has_value()) computed.push_back(name);
  }
  FLEETCAP_ASSIGN_OR_RETURN(const auto fleet, stores_.chargeback->Watermark(kFleet));
  const absl::Time settled = HourOf(report->now - options_.settle_window);
  const policy::PolicyDocument none;
  for (size_t i = 0; i < versions.size(); ++i) {
    if (versions[i].version <= last) continue;
    const policy::PolicyDocument& older = i == 0 ? none : versions[i - 1].teams->policy();
    const absl::Time from =
        std::max(HourOf(EarliestChange(older, versions[i].teams->policy(), versions[i].from)), settled);
    const std::string reason = absl::StrCat("policy version ", versions[i].version);
    int64_t marked = 0;
    for (const std::string& name : computed) {
      const std::vector<absl::Time> hours = HoursBetween(from, report->closed_through);
      if (hours.empty()) continue;
      FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->MarkForRecompute(name, hours, reason));
      marked += static_cast<int64_t>(hours.size());
    }
    if (fleet.has_value()) {
      const std::vector<absl::Time> hours = HoursBetween(from, *fleet);
      if (!hours.empty()) FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->MarkForRecompute(kFleet, hours, reason));
    }
    if (marked == 0) continue;
    report->hours_marked += marked;
    Logger("optimizer")
        ->info("policy version {} changes charges from {}: {} computed cluster hours marked to compute again",
               versions[i].version, FormatRfc3339(from), marked);
  }
  return stores_.state->SeenPolicyVersion(newest);
}

absl::StatusOr<std::vector<store::RecomputeMark>> ChargebackRun::LeaseMarks(const std::string& cluster) {
  std::vector<store::RecomputeMark> leased;
  for (;;) {
    FLEETCAP_ASSIGN_OR_RETURN(auto marks, stores_.chargeback->LeaseRecompute(cluster, kLeaseBatch, options_.holder,
                                                                             clock_->Now(), options_.recompute_lease));
    leased.insert(leased.end(), marks.begin(), marks.end());
    if (marks.size() < static_cast<size_t>(kLeaseBatch)) break;
  }
  std::sort(leased.begin(), leased.end(),
            [](const store::RecomputeMark& a, const store::RecomputeMark& b) { return a.hour < b.hour; });
  return leased;
}

// The marks are leased, and completed (removed) only after their hours are
// stored: an instance that dies before leaves them to the next once the lease
// runs out, and one that fails leaves them to its next pass the same way. A
// death between storing and completing only recomputes the hours twice. The
// marks arriving meanwhile (the facts changed after they were read) survive
// completion (ChargebackWriteRepository::CompleteRecompute).
absl::Status ChargebackRun::RecomputeMarked(const std::string& cluster, PassReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<store::RecomputeMark> leased, LeaseMarks(cluster));
  if (leased.empty()) return absl::OkStatus();
  // A cluster without a watermark of its own starts at the fleet's
  // (StartOf): its hours before it are recomputed from marks.
  FLEETCAP_ASSIGN_OR_RETURN(const auto own, stores_.chargeback->Watermark(cluster));
  FLEETCAP_ASSIGN_OR_RETURN(const auto fleet, stores_.chargeback->Watermark(kFleet));
  const std::optional<absl::Time> watermark = own.has_value() ? own : fleet;
  const absl::Time settled = HourOf(report->now - options_.settle_window);
  std::map<absl::Time, store::RecomputeMark> to_compute;
  std::vector<store::RecomputeMark> done;  // dropped, or at or past the watermark: the catch-up computes those
  const store::RecomputeMark* dropped_sample = nullptr;
  int64_t dropped = 0;
  for (const store::RecomputeMark& mark : leased) {
    if (mark.hour < settled) {
      ++dropped;
      if (dropped_sample == nullptr) dropped_sample = &mark;
      done.push_back(mark);
    } else if (watermark.has_value() && mark.hour < *watermark) {
      to_compute.emplace(mark.hour, mark);
    } else {
      done.push_back(mark);
    }
  }
  report->marks_dropped += dropped;
  if (dropped_sample != nullptr) {
    Logger("optimizer")
        ->warn(
            "{} hours of cluster {} marked to compute again are older than the settle window ({}) and left as they "
            "are, e.g. {} ({}); `fleetcap-optimizer recompute` changes them",
            dropped, cluster, absl::FormatDuration(options_.settle_window), FormatRfc3339(dropped_sample->hour),
            dropped_sample->reason);
  }
  FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->CompleteRecompute(cluster, done));
  std::vector<absl::Time> hours;
  for (const auto& [hour, mark] : to_compute) hours.push_back(hour);
  for (const HourWindow& window : ContiguousWindows(hours, options_.batch_hours)) {
    FLEETCAP_ASSIGN_OR_RETURN(HoursReport computed, ComputeClusterHours(cluster, window.start, window.end));
    // The teams' charges of these hours changed, so do the fleet's fixed
    // lines of them: marked for the fleet whatever its watermark, since the
    // fleet's pass may be spreading them from the lines just replaced. Before
    // the completion, so that a death in between marks them again.
    std::vector<store::RecomputeMark> completed;
    for (absl::Time h = window.start; h < window.end; h += absl::Hours(1)) {
      const store::RecomputeMark& mark = to_compute.at(h);
      ++report->recomputed[mark.reason];
      FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->MarkForRecompute(kFleet, {h}, mark.reason));
      completed.push_back(mark);
    }
    FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->CompleteRecompute(cluster, completed));
    Accumulate(computed, &report->computed);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<absl::Time>> ChargebackRun::StartOf(const std::string& cluster,
                                                                 std::optional<absl::Time> first_in_service) {
  FLEETCAP_ASSIGN_OR_RETURN(auto watermark, stores_.chargeback->Watermark(cluster));
  if (watermark.has_value()) return watermark;
  if (!first_in_service.has_value()) return std::optional<absl::Time>();  // no history yet
  FLEETCAP_ASSIGN_OR_RETURN(auto fleet, stores_.chargeback->Watermark(kFleet));
  if (fleet.has_value()) return fleet;
  return std::optional<absl::Time>(HourOf(*first_in_service));
}

absl::Status ChargebackRun::CatchUp(const std::string& cluster, const std::atomic<bool>* stop, PassReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
  std::optional<absl::Time> first_in_service;
  for (const auto& c : clusters) {
    if (c.cluster == cluster) first_in_service = c.first_in_service;
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto from, StartOf(cluster, first_in_service));
  if (!from.has_value()) return absl::OkStatus();
  absl::Time start = *from;
  while (start < report->closed_through && (stop == nullptr || !stop->load())) {
    const absl::Time end = std::min(start + absl::Hours(options_.batch_hours), report->closed_through);
    FLEETCAP_ASSIGN_OR_RETURN(HoursReport computed, ComputeClusterHours(cluster, start, end));
    FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->AdvanceWatermark(cluster, end));
    Accumulate(computed, &report->computed);
    Logger("optimizer")
        ->info("computed hours [{}, {}) of cluster {}: {} lines", FormatRfc3339(start), FormatRfc3339(end), cluster,
               computed.lines);
    start = end;
  }
  return absl::OkStatus();
}

absl::Status ChargebackRun::ClusterPass(const std::string& cluster, const std::atomic<bool>* stop, PassReport* report) {
  FLEETCAP_RETURN_IF_ERROR(RecomputeMarked(cluster, report));
  return CatchUp(cluster, stop, report);
}

absl::Status ChargebackRun::RecomputeFixedMarked(PassReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<store::RecomputeMark> leased, LeaseMarks(kFleet));
  if (leased.empty()) return absl::OkStatus();
  FLEETCAP_ASSIGN_OR_RETURN(const auto watermark, stores_.chargeback->Watermark(kFleet));
  const absl::Time settled = HourOf(report->now - options_.settle_window);
  // Hours the fixed lines have not reached yet stay marked, released: the
  // catch-up spreads them from the lines stored when it gets there, and the
  // mark makes sure a recomputation stored meanwhile is spread again.
  std::map<absl::Time, store::RecomputeMark> to_compute;
  std::vector<store::RecomputeMark> dropped, later;
  for (const store::RecomputeMark& mark : leased) {
    if (mark.hour < settled) {
      dropped.push_back(mark);
    } else if (watermark.has_value() && mark.hour < *watermark) {
      to_compute.emplace(mark.hour, mark);
    } else {
      later.push_back(mark);
    }
  }
  FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->CompleteRecompute(kFleet, dropped));
  FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->ReleaseRecompute(kFleet, later));
  std::vector<absl::Time> hours;
  for (const auto& [hour, mark] : to_compute) hours.push_back(hour);
  for (const HourWindow& window : ContiguousWindows(hours, options_.batch_hours)) {
    FLEETCAP_ASSIGN_OR_RETURN(HoursReport computed, ComputeFixedHours(window.start, window.end));
    std::vector<store::RecomputeMark> completed;
    for (absl::Time h = window.start; h < window.end; h += absl::Hours(1)) completed.push_back(to_compute.at(h));
    FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->CompleteRecompute(kFleet, completed));
    Accumulate(computed, &report->computed);
  }
  return absl::OkStatus();
}

absl::Status ChargebackRun::CatchUpFixed(const std::atomic<bool>* stop, PassReport* report) {
  // Up to the hour every cluster with history has computed.
  FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
  std::optional<absl::Time> through, first;
  for (const auto& c : clusters) {
    FLEETCAP_ASSIGN_OR_RETURN(auto from, StartOf(c.cluster, c.first_in_service));
    if (!from.has_value()) continue;
    through = through.has_value() ? std::min(*through, *from) : *from;
    if (c.first_in_service.has_value()) {
      const absl::Time hour = HourOf(*c.first_in_service);
      first = first.has_value() ? std::min(*first, hour) : hour;
    }
  }
  if (!through.has_value()) return absl::OkStatus();  // no history yet
  through = std::min(*through, report->closed_through);
  FLEETCAP_ASSIGN_OR_RETURN(auto watermark, stores_.chargeback->Watermark(kFleet));
  if (!watermark.has_value() && !first.has_value()) return absl::OkStatus();
  absl::Time start = watermark.has_value() ? *watermark : *first;
  while (start < *through && (stop == nullptr || !stop->load())) {
    const absl::Time end = std::min(start + absl::Hours(options_.batch_hours), *through);
    FLEETCAP_ASSIGN_OR_RETURN(HoursReport computed, ComputeFixedHours(start, end));
    FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->AdvanceWatermark(kFleet, end));
    Accumulate(computed, &report->computed);
    Logger("optimizer")
        ->info("computed the fixed lines of hours [{}, {}): {} lines", FormatRfc3339(start), FormatRfc3339(end),
               computed.lines);
    start = end;
  }
  return absl::OkStatus();
}

absl::Status ChargebackRun::FleetPass(const std::atomic<bool>* stop, PassReport* report) {
  FLEETCAP_RETURN_IF_ERROR(RecomputeFixedMarked(report));
  FLEETCAP_RETURN_IF_ERROR(CatchUpFixed(stop, report));
  FLEETCAP_ASSIGN_OR_RETURN(report->watermark, stores_.chargeback->Watermark(kFleet));
  return absl::OkStatus();
}

absl::StatusOr<PassReport> ChargebackRun::Pass(const std::atomic<bool>* stop) {
  PassReport report = BeginPass();
  FLEETCAP_RETURN_IF_ERROR(MarkPolicyChanges(&report));
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> clusters, Clusters());
  for (const auto& cluster : clusters) FLEETCAP_RETURN_IF_ERROR(ClusterPass(cluster, stop, &report));
  FLEETCAP_RETURN_IF_ERROR(FleetPass(stop, &report));
  return report;
}

void Accumulate(const HoursReport& add, HoursReport* sum) {
  sum->hours += add.hours;
  sum->total_cost_micro += add.total_cost_micro;
  sum->lines += add.lines;
  sum->rejected_facts += add.rejected_facts;
  sum->unpriced_device_seconds += add.unpriced_device_seconds;
  sum->over_held_spans += add.over_held_spans;
}

}  // namespace fleetcap::chargeback
