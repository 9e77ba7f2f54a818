#include "ingest/openb/openb_replay.h"

#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"

#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_inventory.h"
#include "ingest/openb/openb_trace.h"

namespace fleetcap::ingest {

absl::StatusOr<ReplayReport> ReplayOpenb(const OpenbReplayOptions& options, store::LiveInventoryRepository& inventory,
                                         const Clock& clock) {
  FLEETCAP_ASSIGN_OR_RETURN(auto trace, openb::ReadOpenbTrace(options.data_dir, options.pod_file));
  return ReplayTrace(trace, options.cluster, options.start, inventory, clock);
}

namespace {

void SetAsideMalformedRows(const openb::OpenbTrace& trace, const std::string& cluster, const Clock& clock,
                           store::InventoryChanges& changes) {
  for (const openb::SetAsideRow& row : trace.set_aside) {
    const std::string file = std::filesystem::path(row.path).filename().string();
    changes.quarantine.push_back(
        {0, "replay", cluster, absl::StrCat(file, ":", row.line), row.reason, row.text, clock.Now()});
    Logger("ingest")->warn("replay into {}: set aside {}:{} in the quarantine: {}", cluster, file, row.line,
                           row.reason);
  }
}

ReplayReport ReportOf(const openb::Placement& placement, const store::ClusterInventory& facts, int64_t set_aside_rows) {
  ReplayReport report;
  report.nodes = static_cast<int64_t>(facts.nodes.size());
  report.devices = static_cast<int64_t>(facts.devices.size());
  report.pods = static_cast<int64_t>(facts.pods.size());
  report.placed_pods = placement.placed_pods;
  report.unplaced_pods = static_cast<int64_t>(placement.unplaced.size());
  report.no_gpu_pods = placement.no_gpu_pods;
  report.holds = static_cast<int64_t>(facts.holds.size());
  report.set_aside_rows = set_aside_rows;
  return report;
}

// The waits of the pods that found no room, as the pending demand of a live
// cluster is kept: what the pod asks for, on the model it selects.
std::vector<store::DemandWait> DemandOf(const openb::SampledLoad& load, absl::Time start) {
  std::vector<store::DemandWait> demands;
  demands.reserve(load.waits.size());
  for (const openb::PendingWait& wait : load.waits) {
    const openb::OpenbPod& pod = load.trace.pods[wait.pod];
    std::optional<absl::Time> to;
    if (wait.to_s.has_value()) to = start + absl::Seconds(*wait.to_s);
    demands.push_back({pod.name, openb::kOpenbResourceName, pod.gpu_spec, int64_t{pod.num_gpu} * pod.gpu_milli,
                       start + absl::Seconds(wait.from_s), to});
  }
  return demands;
}

}  // namespace

absl::StatusOr<SampledReplayReport> ReplaySampledOpenb(const OpenbReplayOptions& options,
                                                       openb::LoadSampleOptions sample,
                                                       store::LiveInventoryRepository& inventory, const Clock& clock) {
  FLEETCAP_ASSIGN_OR_RETURN(auto trace, openb::ReadOpenbTrace(options.data_dir, options.pod_file));
  const absl::Time now = clock.Now();
  const int64_t now_s = absl::ToUnixSeconds(now);
  const int64_t start_s = now_s / 3600 * 3600 - sample.window_s;
  sample.start_unix_s = start_s;
  sample.window_s = now_s - start_s;
  FLEETCAP_ASSIGN_OR_RETURN(openb::SampledLoad load, openb::SampleLoad(trace, sample));

  const absl::Time start = absl::FromUnixSeconds(start_s);
  const store::ClusterInventory facts = openb::BuildOpenbInventory(load.trace, load.placement, options.cluster, start);
  store::InventoryChanges changes = openb::OpenbInventoryChanges(facts);
  changes.demands = DemandOf(load, start);
  SetAsideMalformedRows(trace, options.cluster, clock, changes);
  FLEETCAP_RETURN_IF_ERROR(inventory.Apply(changes));

  SampledReplayReport report;
  report.replay = ReportOf(load.placement, facts, static_cast<int64_t>(trace.set_aside.size()));
  report.waits = static_cast<int64_t>(changes.demands.size());
  report.start = start;
  report.end = start + absl::Seconds(sample.window_s);
  report.flavors = std::move(load.flavors);
  return report;
}

absl::StatusOr<ReplayReport> ReplayTrace(const openb::OpenbTrace& trace, const std::string& cluster, absl::Time start,
                                         store::LiveInventoryRepository& inventory, const Clock& clock) {
  const openb::Placement placement = openb::PlaceNextFit(trace);
  const store::ClusterInventory facts = openb::BuildOpenbInventory(trace, placement, cluster, start);
  store::InventoryChanges changes = openb::OpenbInventoryChanges(facts);
  SetAsideMalformedRows(trace, cluster, clock, changes);
  FLEETCAP_RETURN_IF_ERROR(inventory.Apply(changes));
  return ReportOf(placement, facts, static_cast<int64_t>(trace.set_aside.size()));
}

}  // namespace fleetcap::ingest
