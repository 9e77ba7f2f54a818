#include "ingest/openb_replay.h"

#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"

#include "ingest/openb/next_fit_placer.h"
#include "ingest/openb/openb_inventory.h"
#include "ingest/openb/openb_trace.h"

namespace fleetcap::ingest {

absl::StatusOr<ReplayReport> ReplayOpenb(const OpenbReplayOptions& options, store::InventoryRepository& inventory,
                                         store::QuarantineRepository& quarantine, const Clock& clock) {
  auto trace = openb::ReadOpenbTrace(options.data_dir, options.pod_file);
  if (!trace.ok()) return trace.status();
  return ReplayTrace(*trace, options.cluster, options.start, inventory, quarantine, clock);
}

absl::StatusOr<ReplayReport> ReplayTrace(const openb::OpenbTrace& trace, const std::string& cluster,
                                         absl::Time start, store::InventoryRepository& inventory,
                                         store::QuarantineRepository& quarantine, const Clock& clock) {
  const openb::Placement placement = openb::PlaceNextFit(trace);
  const store::ClusterInventory facts = openb::BuildOpenbInventory(trace, placement, cluster, start);
  if (auto status = inventory.ReplaceClusterInventory(facts); !status.ok()) return status;
  std::vector<store::QuarantineRecord> aside;
  for (const openb::SetAsideRow& row : trace.set_aside) {
    const std::string file = std::filesystem::path(row.path).filename().string();
    aside.push_back({0, "replay", cluster, absl::StrCat(file, ":", row.line), row.reason, row.text, clock.Now()});
    Logger("ingest")->warn("replay into {}: set aside {}:{} in the quarantine: {}", cluster, file, row.line,
                           row.reason);
  }
  if (auto status = quarantine.Add(aside); !status.ok()) return status;

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
