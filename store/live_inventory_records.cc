#include "store/live_inventory_records.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"

namespace fleetcap::store {
namespace {

std::string Time(absl::Time t) { return FormatRfc3339(t); }
std::string Time(const std::optional<absl::Time>& t) { return t.has_value() ? FormatRfc3339(*t) : "open"; }

// Every section of InventoryChanges is listed below; a section added there
// and not here would be dropped when a batch is split, so it fails to build.
static_assert(sizeof(InventoryChanges) == sizeof(std::string) + 12 * sizeof(std::vector<int>),
              "InventoryChanges has a section live_inventory_records.cc does not number: add it to Section, "
              "SectionSize, RecordRange, AppendChanges, RecordKey and RecordText");

// The sections of a batch in write order.
enum Section {
  kTypes,
  kNamespaces,
  kNodes,
  kDevices,
  kPods,
  kHolds,
  kDemands,
  kCloseNodes,
  kCloseDevices,
  kCloseHolds,
  kCloseDemands,
  kSections
};

size_t SectionSize(const InventoryChanges& c, int s) {
  switch (s) {
    case kTypes:
      return c.types.size();
    case kNamespaces:
      return c.namespaces.size();
    case kNodes:
      return c.nodes.size();
    case kDevices:
      return c.devices.size();
    case kPods:
      return c.pods.size();
    case kHolds:
      return c.holds.size();
    case kDemands:
      return c.demands.size();
    case kCloseNodes:
      return c.close_nodes.size();
    case kCloseDevices:
      return c.close_devices.size();
    case kCloseHolds:
      return c.close_holds.size();
    case kCloseDemands:
      return c.close_demands.size();
  }
  return 0;
}

// Record `i` as (section, index within it).
std::pair<int, size_t> Locate(const InventoryChanges& c, size_t i) {
  for (int s = 0; s < kSections; ++s) {
    const size_t n = SectionSize(c, s);
    if (i < n) return {s, i};
    i -= n;
  }
  return {kSections, 0};
}

template <typename T>
void CopyRange(const std::vector<T>& from, size_t first, size_t begin, size_t end, std::vector<T>& to) {
  // `from` holds records [first, first + from.size()).
  const size_t lo = std::max(begin, first), hi = std::min(end, first + from.size());
  if (lo < hi)
    to.assign(from.begin() + static_cast<std::ptrdiff_t>(lo - first),
              from.begin() + static_cast<std::ptrdiff_t>(hi - first));
}

std::string CloseText(const char* what, const Close& x) {
  return absl::StrCat("close ", what, " ", x.key, x.device_id.empty() ? "" : absl::StrCat(" device=", x.device_id),
                      " from=", Time(x.from), " to=", Time(x.to));
}

}  // namespace

size_t RecordCount(const InventoryChanges& c) { return c.size() - c.quarantine.size(); }

InventoryChanges RecordRange(const InventoryChanges& c, size_t begin, size_t end) {
  InventoryChanges out;
  out.cluster = c.cluster;
  size_t first = 0;
  auto take = [&](const auto& from, auto& to) {
    CopyRange(from, first, begin, end, to);
    first += from.size();
  };
  take(c.types, out.types);
  take(c.namespaces, out.namespaces);
  take(c.nodes, out.nodes);
  take(c.devices, out.devices);
  take(c.pods, out.pods);
  take(c.holds, out.holds);
  take(c.demands, out.demands);
  take(c.close_nodes, out.close_nodes);
  take(c.close_devices, out.close_devices);
  take(c.close_holds, out.close_holds);
  take(c.close_demands, out.close_demands);
  return out;
}

void AppendChanges(InventoryChanges& c, InventoryChanges more) {
  auto append = [](auto& to, auto& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  append(c.types, more.types);
  append(c.namespaces, more.namespaces);
  append(c.nodes, more.nodes);
  append(c.devices, more.devices);
  append(c.pods, more.pods);
  append(c.holds, more.holds);
  append(c.demands, more.demands);
  append(c.close_nodes, more.close_nodes);
  append(c.close_devices, more.close_devices);
  append(c.close_holds, more.close_holds);
  append(c.close_demands, more.close_demands);
  append(c.quarantine, more.quarantine);
}

absl::Status ValidateRecord(const InventoryChanges& c, size_t i) { return ValidateChanges(RecordRange(c, i, i + 1)); }

std::string RecordKey(const InventoryChanges& c, size_t i) {
  const auto [section, j] = Locate(c, i);
  switch (section) {
    case kTypes:
      return absl::StrCat("accelerator type ", c.types[j].model);
    case kNamespaces:
      return absl::StrCat("namespace ", c.namespaces[j].name);
    case kNodes:
      return absl::StrCat("node ", c.nodes[j].node.name, " from=", Time(c.nodes[j].node.in_service_from));
    case kDevices:
      return absl::StrCat("device ", c.devices[j].device_id, " from=", Time(c.devices[j].in_service_from));
    case kPods: {
      const Pod& p = c.pods[j].pod;
      return absl::StrCat("Pod ", p.namespace_name, "/", p.name, " uid=", p.uid);
    }
    case kHolds: {
      const Hold& h = c.holds[j];
      return absl::StrCat("hold pod=", h.pod_uid, " device=", h.device_id, " from=", Time(h.from));
    }
    case kDemands:
      return absl::StrCat("demand pod=", c.demands[j].pod_uid, " from=", Time(c.demands[j].from));
    case kCloseNodes:
      return CloseText("node", c.close_nodes[j]);
    case kCloseDevices:
      return CloseText("device", c.close_devices[j]);
    case kCloseHolds:
      return CloseText("hold", c.close_holds[j]);
    case kCloseDemands:
      return CloseText("demand", c.close_demands[j]);
  }
  return absl::StrCat("record ", i);
}

std::string RecordText(const InventoryChanges& c, size_t i) {
  const auto [section, j] = Locate(c, i);
  switch (section) {
    case kTypes: {
      const AcceleratorType& t = c.types[j];
      return absl::StrCat("model=", t.model, " vendor=", t.vendor, " resource_name=", t.resource_name);
    }
    case kNamespaces: {
      const NamespaceLabels& n = c.namespaces[j];
      std::string text = absl::StrCat("namespace=", n.name);
      for (const auto& [k, v] : n.labels) absl::StrAppend(&text, " label:", k, "=", v);
      for (const auto& [k, v] : n.annotations) absl::StrAppend(&text, " annotation:", k, "=", v);
      return text;
    }
    case kNodes: {
      const LiveNode& n = c.nodes[j];
      return absl::StrCat("node=", n.node.name, " pool=", n.node.pool, " cpu_milli=", n.node.cpu_milli,
                          " memory_mib=", n.node.memory_mib, " in_service_from=", Time(n.node.in_service_from),
                          " in_service_to=", Time(n.node.in_service_to), " topology=", n.topology);
    }
    case kDevices: {
      const Device& d = c.devices[j];
      return absl::StrCat("device_id=", d.device_id, " node=", d.node, " index=", d.index, " model=", d.model,
                          " in_service_from=", Time(d.in_service_from), " in_service_to=", Time(d.in_service_to));
    }
    case kPods: {
      const Pod& p = c.pods[j].pod;
      return absl::StrCat("uid=", p.uid, " namespace=", p.namespace_name, " name=", p.name, " team=", p.team,
                          " workload=", p.workload_kind, "/", p.workload_name, " phase=", p.phase,
                          " created=", Time(p.created), " scheduled=", Time(p.scheduled), " deleted=", Time(p.deleted),
                          " requested_milli=", p.requested_milli, " unplaced=", p.unplaced ? "true" : "false",
                          " node=", c.pods[j].node);
    }
    case kHolds: {
      const Hold& h = c.holds[j];
      return absl::StrCat("pod_uid=", h.pod_uid, " device_id=", h.device_id, " milli=", h.milli, " from=", Time(h.from),
                          " to=", Time(h.to));
    }
    case kDemands: {
      const DemandWait& d = c.demands[j];
      return absl::StrCat("pod_uid=", d.pod_uid, " resource_name=", d.resource_name, " model=", d.model,
                          " requested_milli=", d.requested_milli, " from=", Time(d.from), " to=", Time(d.to));
    }
    default:
      return RecordKey(c, i);
  }
}

}  // namespace fleetcap::store
