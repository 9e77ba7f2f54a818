#include "optimizer/waste_pass/waste_pass.h"

#include <algorithm>
#include <cstddef>
#include <memory>

#include "common/logging.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/chargeback/hours.h"
#include "optimizer/insights/waste.h"
#include "optimizer/waste_pass/waste_loader.h"

namespace fleetcap::optimizer {
namespace {

store::IdlePieceRecord PieceRecord(const insights::IdleRun& run, const insights::RunPiece& p) {
  return {run.cluster,
          p.hour,
          run.pod_uid,
          p.start,
          p.end,
          run.namespace_name,
          run.team,
          run.workload,
          run.model,
          p.devices_milli,
          p.wasted_milli_seconds,
          p.wasted_cost_micro,
          p.activity_milli_seconds,
          p.sm_milli_seconds};
}

store::WorkloadHourRecord HourRecord(const insights::WorkloadHour& h) {
  return {h.cluster,
          h.hour,
          h.team,
          h.namespace_name,
          h.workload,
          h.held_milli_seconds,
          h.observed_milli_seconds,
          h.active_milli_seconds,
          h.sm_observed_milli_seconds,
          h.both_minutes,
          h.both_held_milli_seconds,
          h.both_duty_milli_seconds,
          h.both_sm_milli_seconds};
}

}  // namespace

absl::Duration WastePass::LookbackHours() const {
  const absl::Duration idle_for =
      stores_.sources.policies()->At(absl::InfiniteFuture(), stores_.sources.up_to).teams->policy().insights.idle_for;
  return absl::Ceil(std::max(idle_for, absl::Minutes(1)), absl::Hours(1));
}

absl::Status WastePass::Write(const std::string& cluster, absl::Time start, absl::Time end, WasteReport* report) {
  const absl::Time history_from = start - LookbackHours();
  FLEETCAP_ASSIGN_OR_RETURN(WasteHolds held, LoadWasteHolds(stores_.sources, cluster, history_from, end));
  FLEETCAP_ASSIGN_OR_RETURN(std::unique_ptr<store::WasteHoursReplacement> replacement,
                            stores_.waste->BeginReplaceHours(cluster, start, end));
  for (const HoldBatch& batch : WorkloadBatches(held.holds, static_cast<size_t>(options_.batch_holds))) {
    insights::WasteInput input;
    input.start = start;
    input.end = end;
    input.history_from = history_from;
    input.holds.assign(held.holds.begin() + static_cast<std::ptrdiff_t>(batch.first),
                       held.holds.begin() + static_cast<std::ptrdiff_t>(batch.last));
    FLEETCAP_ASSIGN_OR_RETURN(input.readings,
                              LoadBatchReadings(*stores_.usage, cluster, held.holds, batch, history_from, end));
    input.prices = held.prices;
    input.options = held.options;
    FLEETCAP_ASSIGN_OR_RETURN(insights::WasteFacts facts, insights::FindWaste(input));
    std::vector<store::IdlePieceRecord> pieces;
    for (const insights::IdleRun& run : facts.runs) {
      for (const insights::RunPiece& p : run.pieces) pieces.push_back(PieceRecord(run, p));
    }
    std::vector<store::WorkloadHourRecord> hours;
    hours.reserve(facts.workload_hours.size());
    for (const insights::WorkloadHour& h : facts.workload_hours) hours.push_back(HourRecord(h));
    FLEETCAP_RETURN_IF_ERROR(replacement->Add(pieces, hours));
    report->runs += static_cast<int64_t>(facts.runs.size());
  }
  FLEETCAP_RETURN_IF_ERROR(replacement->Commit());
  report->hours += (end - start) / absl::Hours(1);
  return absl::OkStatus();
}

absl::Status WastePass::CatchUp(const std::string& cluster, absl::Time through, const std::atomic<bool>* stop,
                                WasteReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(std::optional<absl::Time> watermark, stores_.waste->Watermark(cluster));
  if (!watermark.has_value()) {
    FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
    for (const auto& c : clusters) {
      if (c.cluster == cluster && c.first_in_service.has_value()) watermark = chargeback::HourOf(*c.first_in_service);
    }
    if (!watermark.has_value()) return absl::OkStatus();  // no history yet
  }
  for (absl::Time start = *watermark; start < through && (stop == nullptr || !stop->load());) {
    const absl::Time end = std::min(start + absl::Hours(options_.batch_hours), through);
    FLEETCAP_RETURN_IF_ERROR(Write(cluster, start - LookbackHours(), end, report));
    FLEETCAP_RETURN_IF_ERROR(stores_.waste->AdvanceWatermark(cluster, end));
    Logger("optimizer")
        ->info("waste of hours [{}, {}) of cluster {} computed", FormatRfc3339(start), FormatRfc3339(end), cluster);
    start = end;
  }
  return absl::OkStatus();
}

absl::Status WastePass::RecomputeMarked(const std::string& cluster, absl::Time through, WasteReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(std::optional<absl::Time> watermark, stores_.waste->Watermark(cluster));
  if (!watermark.has_value()) return absl::OkStatus();
  const absl::Time bound = std::min(*watermark, through);
  FLEETCAP_ASSIGN_OR_RETURN(std::vector<store::WasteMark> marks,
                            stores_.waste->Marks(cluster, bound, options_.mark_batch));
  // Each marked hour with I hours either side, overlapping spans merged.
  const absl::Duration around = LookbackHours();
  std::vector<chargeback::HourWindow> spans;
  for (const store::WasteMark& m : marks) {
    const absl::Time from = m.hour - around, to = std::min(m.hour + absl::Hours(1) + around, bound);
    if (!spans.empty() && from <= spans.back().end) {
      spans.back().end = std::max(spans.back().end, to);
    } else {
      spans.push_back({from, to});
    }
  }
  for (const chargeback::HourWindow& span : spans)
    FLEETCAP_RETURN_IF_ERROR(Write(cluster, span.start, span.end, report));
  report->recomputed += static_cast<int64_t>(marks.size());
  return stores_.waste->ClearMarks(cluster, marks);
}

absl::Status WastePass::ClusterPass(const std::string& cluster, const std::atomic<bool>* stop, WasteReport* report) {
  FLEETCAP_ASSIGN_OR_RETURN(std::optional<absl::Time> closed, stores_.chargeback->Watermark(cluster));
  if (!closed.has_value()) return absl::OkStatus();  // the chargeback has not computed an hour of it yet
  FLEETCAP_RETURN_IF_ERROR(CatchUp(cluster, *closed, stop, report));
  return RecomputeMarked(cluster, *closed, report);
}

absl::StatusOr<WasteReport> WastePass::Run(const std::atomic<bool>* stop) {
  FLEETCAP_RETURN_IF_ERROR(stores_.sources.policies()->Refresh());
  FLEETCAP_ASSIGN_OR_RETURN(auto clusters, stores_.sources.facts->Clusters());
  WasteReport report;
  for (const auto& c : clusters) FLEETCAP_RETURN_IF_ERROR(ClusterPass(c.cluster, stop, &report));
  return report;
}

}  // namespace fleetcap::optimizer
