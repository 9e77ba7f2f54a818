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
#include "optimizer/chargeback/hours.h"

namespace fleetcap::chargeback {
namespace {

store::ChargebackLineRecord RecordOf(attribution::ChargeLine&& l) {
  return {l.hour,
          std::move(l.cluster),
          std::move(l.team),
          std::move(l.namespace_name),
          std::move(l.workload),
          std::move(l.model),
          std::move(l.line_kind),
          l.held_milli_seconds,
          l.used_milli_seconds,
          l.direct_cost_micro,
          l.idle_cost_micro,
          l.shared_cost_micro,
          l.total_cost_micro,
          l.no_telemetry};
}

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

absl::StatusOr<HoursReport> ChargebackRun::ComputeHours(absl::Time start, absl::Time end) {
  if (!IsHour(start) || !IsHour(end) || !(start < end)) {
    return absl::InvalidArgumentError(absl::StrCat("hours to compute [", FormatRfc3339(start), ", ", FormatRfc3339(end),
                                                   "): must be whole hours, start before end"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
  for (const auto& c : clusters) FLEETCAP_RETURN_IF_ERROR(stores_.rollups->RollUp(c.cluster, start, end));
  FLEETCAP_ASSIGN_OR_RETURN(LoadedWindow window, LoadWindow(stores_.sources, start, end));

  // Every cluster is replaced, lines or not, so that stale lines vanish.
  std::map<std::string, std::vector<store::ChargebackLineRecord>> lines;
  std::map<std::string, std::vector<store::OverHeldRecord>> over_held;
  lines[kFleet];
  for (const auto& cluster : window.clusters) lines[cluster];
  HoursReport report;
  report.hours = (end - start) / absl::Hours(1);
  std::vector<attribution::RejectedFact> rejected;
  for (const WindowPiece& piece : window.pieces) {
    FLEETCAP_ASSIGN_OR_RETURN(attribution::AttributionReport engine,
                              attribution::Attribute(piece.input, *window.teams, [&](attribution::HourLines&& hour) {
                                for (auto& line : hour.lines) {
                                  std::string cluster = line.cluster;
                                  lines[cluster].push_back(RecordOf(std::move(line)));
                                }
                              }));
    report.total_cost_micro += engine.total_cost_micro;
    for (auto& o : engine.over_held) {
      over_held[o.cluster].push_back({o.cluster, o.device_id, o.from, o.to, o.held_milli, std::move(o.pod_uids)});
      ++report.over_held_spans;
    }
    for (const auto& u : engine.unpriced) report.unpriced_device_seconds += u.device_seconds;
    rejected.insert(rejected.end(), engine.rejected.begin(), engine.rejected.end());
  }
  for (const auto& [cluster, cluster_lines] : lines) {
    report.lines += static_cast<int64_t>(cluster_lines.size());
    FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->ReplaceHours(cluster, start, end, cluster_lines, over_held[cluster]));
  }
  report.rejected_facts = static_cast<int64_t>(rejected.size());
  const std::string window_text = absl::StrCat("[", FormatRfc3339(start), ", ", FormatRfc3339(end), ")");
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

absl::Status ChargebackRun::MarkNewPolicyVersions(absl::Time now, PassReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(const int32_t last, stores_.state->LastPolicyVersion());
  FLEETCAP_RETURN_IF_ERROR(stores_.sources.policies->Refresh());
  const std::vector<policy::PolicyInForce> versions =
      stores_.sources.policies->During(absl::InfinitePast(), absl::InfiniteFuture());
  const int32_t newest = versions.empty() ? 0 : versions.back().version;
  if (newest <= last) return absl::OkStatus();
  FLEETCAP_ASSIGN_OR_RETURN(const auto watermark, stores_.chargeback->Watermark(kFleet));
  if (watermark.has_value()) {
    const absl::Time settled = HourOf(now - options_.settle_window);
    const policy::PolicyDocument none;
    for (size_t i = 0; i < versions.size(); ++i) {
      if (versions[i].version <= last) continue;
      const policy::PolicyDocument& older = i == 0 ? none : versions[i - 1].teams->policy();
      const absl::Time from =
          std::max(HourOf(EarliestChange(older, versions[i].teams->policy(), versions[i].from)), settled);
      std::vector<absl::Time> hours;
      for (absl::Time h = from; h < *watermark; h += absl::Hours(1)) hours.push_back(h);
      if (hours.empty()) continue;
      FLEETCAP_RETURN_IF_ERROR(
          stores_.chargeback->MarkForRecompute(kFleet, hours, absl::StrCat("policy version ", versions[i].version)));
      report->hours_marked += static_cast<int64_t>(hours.size());
      Logger("optimizer")
          ->info("policy version {} changes charges from {}: {} computed hours marked to compute again",
                 versions[i].version, FormatRfc3339(from), hours.size());
    }
  }
  return stores_.state->SeenPolicyVersion(newest);
}

absl::Status ChargebackRun::RecomputeMarked(absl::Time now, PassReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
  std::vector<std::string> names = {kFleet};
  for (const auto& c : clusters) names.push_back(c.cluster);
  std::map<absl::Time, std::string> marked;  // hour -> its first reason
  for (const auto& name : names) {
    for (;;) {
      FLEETCAP_ASSIGN_OR_RETURN(auto marks, stores_.chargeback->TakeRecompute(name, 1000));
      for (auto& m : marks) marked.emplace(m.hour, std::move(m.reason));
      if (marks.size() < 1000) break;
    }
  }
  if (marked.empty()) return absl::OkStatus();
  FLEETCAP_ASSIGN_OR_RETURN(const auto watermark, stores_.chargeback->Watermark(kFleet));
  const absl::Time settled = HourOf(now - options_.settle_window);
  std::vector<absl::Time> hours;
  const std::pair<const absl::Time, std::string>* dropped_sample = nullptr;
  for (const auto& mark : marked) {
    if (mark.first < settled) {
      ++report->marks_dropped;
      if (dropped_sample == nullptr) dropped_sample = &mark;
    } else if (watermark.has_value() && mark.first < *watermark) {
      hours.push_back(mark.first);
    }  // at or past the watermark: the catch-up computes it anyway
  }
  if (dropped_sample != nullptr) {
    Logger("optimizer")
        ->warn(
            "{} hours marked to compute again are older than the settle window ({}) and left as they are, e.g. {} "
            "({}); `fleetcap-optimizer recompute` changes them",
            report->marks_dropped, absl::FormatDuration(options_.settle_window), FormatRfc3339(dropped_sample->first),
            dropped_sample->second);
  }
  const std::vector<HourWindow> windows = ContiguousWindows(hours, options_.batch_hours);
  for (size_t w = 0; w < windows.size(); ++w) {
    auto computed = ComputeHours(windows[w].start, windows[w].end);
    if (!computed.ok()) {
      // The marks were taken: put back those not recomputed, for the next pass.
      for (size_t rest = w; rest < windows.size(); ++rest) {
        for (absl::Time h = windows[rest].start; h < windows[rest].end; h += absl::Hours(1)) {
          (void)stores_.chargeback->MarkForRecompute(kFleet, {h}, marked[h]);
        }
      }
      return computed.status();
    }
    for (absl::Time h = windows[w].start; h < windows[w].end; h += absl::Hours(1)) ++report->recomputed[marked[h]];
    Accumulate(*computed, &report->computed);
  }
  return absl::OkStatus();
}

absl::Status ChargebackRun::CatchUp(absl::Time closed_through, const std::atomic<bool>* stop, PassReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(auto watermark, stores_.chargeback->Watermark(kFleet));
  absl::Time start;
  if (watermark.has_value()) {
    start = *watermark;
  } else {
    // Before the first: from the first hour any device was in service.
    FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
    std::optional<absl::Time> first;
    for (const auto& c : clusters) {
      if (c.first_in_service.has_value() && (!first.has_value() || *c.first_in_service < *first)) {
        first = c.first_in_service;
      }
    }
    if (!first.has_value()) return absl::OkStatus();  // no history yet
    start = HourOf(*first);
  }
  while (start < closed_through && (stop == nullptr || !stop->load())) {
    const absl::Time end = std::min(start + absl::Hours(options_.batch_hours), closed_through);
    FLEETCAP_ASSIGN_OR_RETURN(HoursReport computed, ComputeHours(start, end));
    FLEETCAP_RETURN_IF_ERROR(stores_.chargeback->AdvanceWatermark(kFleet, end));
    Accumulate(computed, &report->computed);
    Logger("optimizer")
        ->info("computed hours [{}, {}): {} lines", FormatRfc3339(start), FormatRfc3339(end), computed.lines);
    start = end;
  }
  return absl::OkStatus();
}

absl::StatusOr<PassReport> ChargebackRun::Pass(const std::atomic<bool>* stop) {
  PassReport report;
  const absl::Time now = clock_->Now();
  report.closed_through = ClosedThrough(now, options_.close_delay);
  FLEETCAP_RETURN_IF_ERROR(MarkNewPolicyVersions(now, &report));
  FLEETCAP_RETURN_IF_ERROR(RecomputeMarked(now, &report));
  FLEETCAP_RETURN_IF_ERROR(CatchUp(report.closed_through, stop, &report));
  FLEETCAP_ASSIGN_OR_RETURN(report.watermark, stores_.chargeback->Watermark(kFleet));
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
