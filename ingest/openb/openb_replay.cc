#include "ingest/openb/openb_replay.h"

#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"

#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_inventory.h"
#include "ingest/openb/openb_trace.h"
#include "store/cluster_inventory_changes.h"

namespace fleetcap::ingest {

absl::StatusOr<ReplayReport> ReplayOpenb(const OpenbReplayOptions& options, store::LiveInventoryRepository& inventory,
                                         const Clock& clock) {
  FLEETCAP_ASSIGN_OR_RETURN(auto trace, openb::ReadOpenbTrace(options.data_dir, options.pod_file));
  return ReplayTrace(trace, options.cluster, options.start, inventory, clock);
}

absl::StatusOr<ReplayReport> ReplayTrace(const openb::OpenbTrace& trace, const std::string& cluster, absl::Time start,
                                         store::LiveInventoryRepository& inventory, const Clock& clock) {
  const openb::Placement placement = openb::PlaceNextFit(trace);
  const store::ClusterInventory facts = openb::BuildOpenbInventory(trace, placement, cluster, start);
  store::InventoryChanges changes = store::ChangesOf(facts);
  for (const openb::SetAsideRow& row : trace.set_aside) {
    const std::string file = std::filesystem::path(row.path).filename().string();
    changes.quarantine.push_back(
        {0, "replay", cluster, absl::StrCat(file, ":", row.line), row.reason, row.text, clock.Now()});
    Logger("ingest")->warn("replay into {}: set aside {}:{} in the quarantine: {}", cluster, file, row.line,
                           row.reason);
  }
  FLEETCAP_RETURN_IF_ERROR(inventory.Apply(changes));

  ReplayReport report;
  report.nodes = static_cast<int64_t>(facts.nodes.size());
  report.devices = static_cast<int64_t>(facts.devices.size());
  report.pods = static_cast<int64_t>(facts.pods.size());
  report.placed_pods = placement.placed_pods;
  report.unplaced_pods = static_cast<int64_t>(placement.unplaced.size());
  report.no_gpu_pods = placement.no_gpu_pods;
  report.holds = static_cast<int64_t>(facts.holds.size());
  report.set_aside_rows = static_cast<int64_t>(trace.set_aside.size());
  return report;
}

}  // namespace fleetcap::ingest
