#include "ingest/openb/openb_inventory.h"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "ingest/openb/openb_team.h"
#include "store/cluster_inventory_changes.h"

namespace fleetcap::openb {
namespace {

std::optional<absl::Time> At(absl::Time start, const std::optional<int64_t>& seconds) {
  if (!seconds.has_value()) return std::nullopt;
  return start + absl::Seconds(*seconds);
}

// A Kubernetes label value that is not empty: at most 63 characters of
// A-Z a-z 0-9 - _ . that begin and end with a letter or digit.
bool IsOpenbLabelValue(absl::string_view value) {
  if (value.empty() || value.size() > 63) return false;
  if (!absl::ascii_isalnum(value.front()) || !absl::ascii_isalnum(value.back())) return false;
  for (char c : value) {
    if (!absl::ascii_isalnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

}  // namespace

absl::string_view OpenbVendor(absl::string_view model) {
  for (absl::string_view nvidia : {"T4", "P100", "V100M16", "V100M32", "A10"}) {
    if (model == nvidia) return "nvidia";
  }
  return "unknown";
}

std::string OpenbDeviceId(absl::string_view node, int index) { return absl::StrCat(node, "-gpu", index); }

store::ClusterInventory BuildOpenbInventory(const OpenbTrace& trace, const Placement& placement,
                                            const std::string& cluster, absl::Time start) {
  store::ClusterInventory inventory;
  inventory.cluster = cluster;

  std::set<std::string> models;
  for (const OpenbNode& node : trace.nodes) {
    if (node.gpus > 0) models.insert(node.model);
  }
  for (const std::string& model : models) {
    inventory.types.push_back({model, std::string(OpenbVendor(model)), kOpenbResourceName});
  }

  for (const OpenbNode& node : trace.nodes) {
    inventory.nodes.push_back({node.name, node.model, node.cpu_milli, node.memory_mib, start, std::nullopt});
    for (int32_t gpu = 0; gpu < node.gpus; ++gpu) {
      inventory.devices.push_back({OpenbDeviceId(node.name, gpu), node.name, gpu, node.model, start, std::nullopt});
    }
  }

  inventory.pods.reserve(trace.pods.size());
  for (size_t p = 0; p < trace.pods.size(); ++p) {
    const OpenbPod& pod = trace.pods[p];
    OpenbTeam team = TeamForOpenbPod(pod.name);
    store::Pod out;
    out.uid = pod.name;
    out.namespace_name = std::move(team.namespace_name);
    out.name = pod.name;
    out.team = std::move(team.team);
    out.workload_kind = "Pod";  // the trace has no controllers
    out.workload_name = pod.name;
    out.phase = pod.phase;
    out.created = start + absl::Seconds(pod.creation_s);
    out.scheduled = At(start, pod.scheduled_s);
    out.deleted = At(start, pod.deletion_s);
    out.requested_milli = int64_t{pod.num_gpu} * pod.gpu_milli;
    out.unplaced = p < placement.outcomes.size() && IsUnplaced(placement.outcomes[p]);
    inventory.pods.push_back(std::move(out));
  }

  inventory.holds.reserve(placement.holds.size());
  for (const GpuHold& hold : placement.holds) {
    inventory.holds.push_back({trace.pods[hold.pod].name, OpenbDeviceId(trace.nodes[hold.node].name, hold.gpu),
                               hold.milli, start + absl::Seconds(hold.start_s), At(start, hold.end_s)});
  }
  return inventory;
}

store::InventoryChanges OpenbInventoryChanges(const store::ClusterInventory& inventory) {
  std::map<std::string, std::string> model_of;  // node -> its GPUs' model
  for (const store::Device& device : inventory.devices) model_of.emplace(device.node, device.model);
  store::InventoryChanges changes = store::ChangesOf(inventory);
  for (store::LiveNode& node : changes.nodes) {
    auto model = model_of.find(node.node.name);
    if (model == model_of.end() || !IsOpenbLabelValue(model->second)) continue;
    node.model_label_key = kOpenbModelLabel;
    node.model_label_value = model->second;
  }
  return changes;
}

}  // namespace fleetcap::openb
