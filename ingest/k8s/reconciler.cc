#include "ingest/k8s/reconciler.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "policy/policy_parser.h"
#include "store/live_inventory_records.h"
#include "store/refused_records.h"

namespace fleetcap::k8s {
namespace {

bool SameRow(const store::LivePod& a, const store::LivePod& b) {
  const store::Pod& x = a.pod;
  const store::Pod& y = b.pod;
  return a.node == b.node && x.uid == y.uid && x.namespace_name == y.namespace_name && x.name == y.name &&
         x.team == y.team && x.workload_kind == y.workload_kind && x.workload_name == y.workload_name &&
         x.phase == y.phase && x.created == y.created && x.scheduled == y.scheduled && x.deleted == y.deleted &&
         x.requested_milli == y.requested_milli && x.unplaced == y.unplaced;
}

bool SameNode(const store::LiveNode& a, const store::LiveNode& b) {
  return a.node.name == b.node.name && a.node.pool == b.node.pool && a.node.cpu_milli == b.node.cpu_milli &&
         a.node.memory_mib == b.node.memory_mib && a.node.in_service_from == b.node.in_service_from &&
         a.topology == b.topology && a.model_label_key == b.model_label_key &&
         a.model_label_value == b.model_label_value && a.pool_label_key == b.pool_label_key;
}

// The store refused records of the batch (malformed, or a value the database
// cannot hold); any other error is an outage, after which the same changes
// are written again.
bool Refused(const absl::Status& status) { return absl::IsInvalidArgument(status); }

int64_t Resource(const std::map<std::string, int64_t>& resources, const char* name) {
  auto it = resources.find(name);
  return it == resources.end() ? 0 : it->second;
}

}  // namespace

Reconciler::Reconciler(ReconcilerOptions options, store::LiveInventoryRepository* repo, K8sMetrics* metrics,
                       const Clock* clock)
    : options_(std::move(options)), repo_(repo), metrics_(metrics), clock_(clock) {
  pending_.cluster = options_.cluster;
}

absl::Status Reconciler::Start() {
  FLEETCAP_ASSIGN_OR_RETURN(auto live, repo_->LoadLive(options_.cluster));
  std::map<std::string, std::pair<std::string, int>> device_place;  // device id -> (node, index)
  for (auto& n : live.nodes) {
    NodeState& st = NodeNamed(n.node.name);
    st.row = n;
    st.row_open = true;
  }
  for (auto& d : live.devices) {
    NodeState& st = NodeNamed(d.node);
    if (!st.row_open) {
      // A device whose node row is closed: keep it, so the relist closes it.
      st.row.node.name = d.node;
    }
    if (static_cast<int>(st.devices.size()) <= d.index) {
      st.devices.resize(d.index + 1);
      st.load.resize(d.index + 1, 0);
    }
    st.devices[d.index] = {d.device_id, d.model, d.in_service_from};
    device_place[d.device_id] = {d.node, d.index};
  }
  for (auto& lp : live.pods) {
    PodState& st = pods_[lp.pod.uid];
    st.row = lp;
    st.row_known = true;
  }
  for (auto& h : live.holds) {
    auto [it, inserted] = pods_.try_emplace(h.pod_uid);
    PodState& st = it->second;
    if (inserted) {
      st.orphan = true;
      st.row.pod.uid = h.pod_uid;
    }
    st.holds.push_back({h.device_id, -1, h.milli, h.from, h.to});
    HoldRow& row = st.holds.back();
    std::string node;
    if (auto place = device_place.find(h.device_id); place != device_place.end()) {
      node = place->second.first;
      row.index = place->second.second;
    } else if (int index = 0; ParseDeviceId(h.device_id, &node, &index)) {
      row.index = index;  // its device is out of service; the hold still keeps it from others
    }
    if (!h.to.has_value() && row.index >= 0 && nodes_.count(node)) AdjustLoad(node, row, +1);
  }
  for (auto& d : live.demands) {
    auto [it, inserted] = pods_.try_emplace(d.pod_uid);
    if (inserted) {
      it->second.orphan = true;
      it->second.row.pod.uid = d.pod_uid;
    }
    it->second.demand = DemandRow{d.from, d.to};
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto active, repo_->ActivePolicy());
  SetPolicy(active);
  Logger("k8s")->info("cluster {}: resuming from {} open nodes, {} open devices, {} live pods, {} holds",
                      options_.cluster, live.nodes.size(), live.devices.size(), live.pods.size(), live.holds.size());
  if (metrics_ != nullptr) metrics_->pods_tracked.Set(static_cast<double>(pods_.size()));
  return absl::OkStatus();
}

Reconciler::NodeState& Reconciler::NodeNamed(const std::string& name) {
  auto [it, inserted] = nodes_.try_emplace(name);
  if (inserted) it->second.generation = ++last_generation_;
  return it->second;
}

// Counts an open hold in its node's load (+1), or releases it (-1) from the
// same life of the node it was counted in.
void Reconciler::AdjustLoad(const std::string& node, HoldRow& hold, int sign) {
  auto it = nodes_.find(node);
  if (it == nodes_.end() || hold.index < 0) return;
  NodeState& st = it->second;
  if (sign > 0) {
    if (static_cast<int>(st.load.size()) <= hold.index) st.load.resize(hold.index + 1, 0);
    st.load[hold.index] += hold.milli;
    hold.counted_in = st.generation;
  } else if (hold.counted_in == st.generation && hold.index < static_cast<int>(st.load.size())) {
    st.load[hold.index] -= hold.milli;
    hold.counted_in = 0;
  }
}

void Reconciler::SetPolicy(const store::ActivePolicyText& active) {
  if (active.version == policy_version_) return;
  policy_version_ = active.version;
  if (active.version == 0) {
    trust_ = policy::TeamResolver();
    return;
  }
  policy::ParsedPolicy parsed = policy::ParsePolicy(active.document);
  if (!parsed.ok()) {
    Logger("k8s")->error("cluster {}: policy version {} does not parse; keeping what the previous one trusts: {}",
                         options_.cluster, active.version, policy::FormatPolicyError("", parsed.errors.front()));
    return;
  }
  trust_ = policy::TeamResolver(std::make_shared<const policy::PolicyDocument>(std::move(parsed.document)));
}

// The pod as far as the policy trusts it: without GPU-sharing annotations
// (its share, count and device indices) unless its namespace is trusted for
// them, so the device request decides what it holds.
const PodObject& Reconciler::Trusted(const PodObject& pod, PodObject& stripped) const {
  const AcceleratorConfig& acc = options_.accelerators;
  const bool annotated = pod.annotations.count(acc.share_milli_annotation) > 0 ||
                         pod.annotations.count(acc.share_count_annotation) > 0 ||
                         pod.annotations.count(acc.device_index_annotation) > 0;
  if (!annotated || trust_.TrustsGpuShare(options_.cluster, pod.namespace_name)) return pod;
  stripped = pod;
  for (const auto* key : {&acc.share_milli_annotation, &acc.share_count_annotation, &acc.device_index_annotation}) {
    stripped.annotations.erase(*key);
  }
  return stripped;
}

void Reconciler::WriteRow(PodState& st, store::LivePod row) {
  if (st.orphan) return;
  if (st.row_known && SameRow(st.row, row)) return;
  st.row = std::move(row);
  st.row_known = true;
  pending_.pods.push_back(st.row);
}

// Team and workload again, after a namespace, controller or policy changed.
void Reconciler::Refresh(PodState& st) {
  if (st.orphan || !st.owner_known) return;
  store::LivePod row = st.row;
  row.pod.team = PodTeamLabel(st.team_labels, options_.teams);
  std::string unresolved;
  WorkloadRef workload = controllers_.TopController(row.pod.name, st.owner, &unresolved);
  row.pod.workload_kind = workload.kind;
  row.pod.workload_name = workload.name;
  if (!unresolved.empty()) waiting_for_controller_[unresolved].insert(row.pod.uid);
  WriteRow(st, std::move(row));
}

// The namespace's team evidence is written when first seen by this process
// and whenever it changes; its pods' rows do not depend on it.
void Reconciler::Namespace(const NamespaceObject& ns) {
  auto it = namespaces_.find(ns.name);
  const bool changed =
      it == namespaces_.end() || it->second.labels != ns.labels || it->second.annotations != ns.annotations;
  namespaces_[ns.name] = ns;
  if (changed) pending_.namespaces.push_back({ns.name, ns.labels, ns.annotations});
}

void Reconciler::NamespaceDeleted(const std::string& name) { namespaces_.erase(name); }

void Reconciler::NamespacesListed(const std::set<std::string>& names) {
  for (auto it = namespaces_.begin(); it != namespaces_.end();) {
    it = names.count(it->first) ? std::next(it) : namespaces_.erase(it);
  }
}

void Reconciler::Controller(const ControllerObject& c) {
  controllers_.Upsert(c);
  controller_kinds_[c.uid] = c.kind;
  auto waiting = waiting_for_controller_.find(c.uid);
  if (waiting == waiting_for_controller_.end()) return;
  std::set<std::string> uids = std::move(waiting->second);
  waiting_for_controller_.erase(waiting);
  for (const auto& uid : uids) {
    auto p = pods_.find(uid);
    if (p != pods_.end()) Refresh(p->second);
  }
}

void Reconciler::ControllerDeleted(const std::string& uid) {
  controllers_.Remove(uid);
  controller_kinds_.erase(uid);
}

void Reconciler::ControllersListed(const std::string& kind, const std::set<std::string>& uids) {
  std::vector<std::string> gone;
  for (const auto& [uid, k] : controller_kinds_) {
    if (k == kind && !uids.count(uid)) gone.push_back(uid);
  }
  for (const auto& uid : gone) ControllerDeleted(uid);
}

void Reconciler::Node(const NodeObject& node, absl::Time observed) {
  NodeState& st = NodeNamed(node.name);
  const NodeAccelerators acc = DescribeNode(node, options_.accelerators);
  store::LiveNode row;
  row.node.name = node.name;
  row.node.pool = NodePool(node, options_.accelerators);
  row.node.cpu_milli = std::max<int64_t>(0, Resource(node.capacity, "cpu"));
  row.node.memory_mib = std::max<int64_t>(0, Resource(node.capacity, "memory") / 1000 / (1024 * 1024));
  row.topology = acc.topology;
  row.model_label_key = acc.model_label_key;
  row.model_label_value = acc.model_label_value;
  row.pool_label_key = NodePoolLabel(node, options_.accelerators);

  // Devices first appear with their node; later changes are dated when seen.
  absl::Time device_from = observed;
  if (!st.row_open) {
    row.node.in_service_from = node.created;
    device_from = node.created;
  } else if (!st.seen && st.row.node.in_service_from != node.created) {
    // Deleted and created again while no ingest watched: a new period.
    CloseNode(st, node.created);
    row.node.in_service_from = node.created;
    device_from = node.created;
  } else {
    row.node.in_service_from = st.row.node.in_service_from;
  }
  if (!st.row_open || !SameNode(st.row, row)) pending_.nodes.push_back(row);
  st.row = row;
  st.row_open = true;
  st.seen = true;
  st.accelerators = acc;

  if (acc.devices > 0 && types_written_.insert(acc.model).second) {
    pending_.types.push_back({acc.model, acc.vendor, acc.resource_name});
  }
  std::vector<DeviceRow> devices(acc.devices);
  for (int i = 0; i < acc.devices; ++i) {
    const std::string id = DeviceId(node.name, acc.family, i);
    if (i < static_cast<int>(st.devices.size()) && st.devices[i].device_id == id && st.devices[i].model == acc.model) {
      devices[i] = st.devices[i];
      continue;
    }
    devices[i] = {id, acc.model, device_from};
    pending_.devices.push_back({id, node.name, i, acc.model, device_from, std::nullopt});
  }
  for (size_t i = 0; i < st.devices.size(); ++i) {
    const DeviceRow& old = st.devices[i];
    if (old.device_id.empty()) continue;
    if (i < devices.size() && devices[i].device_id == old.device_id && devices[i].model == old.model) continue;
    pending_.close_devices.push_back({old.device_id, "", old.from, std::max(old.from, device_from)});
  }
  st.devices = std::move(devices);
  if (static_cast<int>(st.load.size()) < acc.devices) st.load.resize(acc.devices, 0);

  auto waiting = awaiting_node_.find(node.name);
  if (waiting != awaiting_node_.end()) {
    auto pods = std::move(waiting->second);
    awaiting_node_.erase(waiting);
    for (const auto& [pod, seen_at] : pods) ApplyPod(pod, seen_at, false);
  }
}

void Reconciler::CloseNode(NodeState& st, absl::Time at) {
  if (st.row_open) {
    pending_.close_nodes.push_back(
        {st.row.node.name, "", st.row.node.in_service_from, std::max(at, st.row.node.in_service_from)});
  }
  for (const auto& d : st.devices) {
    if (!d.device_id.empty()) pending_.close_devices.push_back({d.device_id, "", d.from, std::max(at, d.from)});
  }
  st.row_open = false;
  st.devices.clear();
  // A new life: holds of the old one are released when their pods go, but not from this load.
  st.generation = ++last_generation_;
  std::fill(st.load.begin(), st.load.end(), 0);
}

void Reconciler::NodeDeleted(const std::string& name, absl::Time observed) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  CloseNode(it->second, observed);
  nodes_.erase(it);
}

void Reconciler::NodesListed(const std::set<std::string>& names, absl::Time observed) {
  std::vector<std::string> gone;
  for (const auto& [name, st] : nodes_) {
    if (!names.count(name)) gone.push_back(name);
  }
  for (const auto& name : gone) NodeDeleted(name, observed);
  // Pods bound to nodes that do not exist hold nothing; their rows were written when they arrived.
  for (auto it = awaiting_node_.begin(); it != awaiting_node_.end();) {
    it = names.count(it->first) ? std::next(it) : awaiting_node_.erase(it);
  }
}

void Reconciler::Pod(const PodObject& pod, absl::Time observed) {
  if (relisting_pods_) {
    auto it = pods_.find(pod.uid);
    const bool has_holds = it != pods_.end() && !it->second.holds.empty();
    if (!has_holds && TimesOf(pod, observed).hold_from.has_value()) {
      deferred_.emplace_back(pod, observed);
      return;
    }
  }
  ApplyPod(pod, observed, false);
}

void Reconciler::PodDeleted(const PodObject& pod, absl::Time observed) { ApplyPod(pod, observed, true); }

// One observation of a pod, in the steps below: its holds, its unmet
// demand, its row.
void Reconciler::ApplyPod(const PodObject& seen, absl::Time observed, bool deleted) {
  PodObject stripped;
  const PodObject& pod = Trusted(seen, stripped);
  const PodTimes times = TimesOf(pod, observed);
  NodeState* node = times.bound ? SeenNode(pod.node_name) : nullptr;
  PodDemand demand = node != nullptr ? DemandOn(pod, node->accelerators, options_.accelerators)
                                     : DemandUnbound(pod, options_.accelerators);
  if (demand.empty() && pods_.count(pod.uid) == 0) return;  // no accelerators: not fleetcap's business
  const std::optional<absl::Time> deleted_at =
      deleted ? std::optional<absl::Time>(DeletionTime(pod, observed)) : std::nullopt;
  const Sighting s{pod, observed, times, deleted_at, std::move(demand), node};
  PodState& st = pods_[pod.uid];
  st.orphan = false;
  st.team_labels = pod.labels;
  st.owner = pod.controller;
  st.owner_known = true;

  // Holds: opened once, when the containers start; closed once, when it ends.
  const std::optional<absl::Time> end = times.hold_to.has_value() ? times.hold_to : s.deleted_at;
  if (st.holds.empty() && times.hold_from.has_value() && !s.demand.empty()) {
    OpenHolds(s, end, st);
  } else if (end.has_value()) {
    CloseHolds(pod.uid, st.row.node.empty() ? pod.node_name : st.row.node, *end, st);
  }
  TrackDemand(s, st);
  WriteRow(st, RowOf(s, st));
  if (deleted) ForgetPod(pod.uid);
  if (metrics_ != nullptr) metrics_->pods_tracked.Set(static_cast<double>(pods_.size()));
}

Reconciler::NodeState* Reconciler::SeenNode(const std::string& name) {
  auto it = nodes_.find(name);
  return it != nodes_.end() && it->second.seen ? &it->second : nullptr;
}

// Places the pod's demand on its node's devices in service, holding from
// when its containers started (to `end`, when it already ended). A pod whose
// node is unknown, or has no device in service yet, waits for the node.
void Reconciler::OpenHolds(const Sighting& s, std::optional<absl::Time> end, PodState& st) {
  const PodObject& pod = s.pod;
  if (s.node == nullptr) {
    if (!s.deleted_at.has_value()) awaiting_node_[pod.node_name].push_back({pod, s.observed});
    if (metrics_ != nullptr) metrics_->pods_on_unknown_nodes.Increment();
    return;
  }
  NodeState& node = *s.node;
  // Only devices in service are assigned; their load counts holds on devices that left too.
  const std::vector<int32_t> in_service(node.load.begin(),
                                        node.load.begin() + static_cast<std::ptrdiff_t>(node.devices.size()));
  const Assignment a = AssignDevices(in_service, s.demand);
  if (metrics_ != nullptr) {
    if (a.overcommitted) metrics_->overcommitted.Increment();
    metrics_->unplaced_milli.Increment(static_cast<double>(a.unplaced_milli));
  }
  if (a.shares.empty() && !s.deleted_at.has_value()) {
    // No device in service to hold (its device plugin not yet ready): try again when the node changes.
    awaiting_node_[pod.node_name].push_back({pod, s.observed});
  }
  for (const auto& share : a.shares) {
    HoldRow h{node.devices[share.index].device_id, share.index, share.milli, *s.times.hold_from, std::nullopt};
    if (end.has_value()) h.to = std::max(*end, h.from);
    pending_.holds.push_back({pod.uid, h.device_id, h.milli, h.from, h.to});
    st.holds.push_back(h);
    if (!h.to.has_value()) AdjustLoad(pod.node_name, st.holds.back(), +1);
  }
}

// Ends the pod's open holds at `at` (never before they began), releasing
// their load on `node`.
void Reconciler::CloseHolds(const std::string& uid, const std::string& node, absl::Time at, PodState& st) {
  for (auto& h : st.holds) {
    if (h.to.has_value()) continue;
    h.to = std::max(at, h.from);
    pending_.close_holds.push_back({uid, h.device_id, h.from, *h.to});
    AdjustLoad(node, h, -1);
  }
}

// Unmet demand: from creation while it waits unbound, until bound or gone.
void Reconciler::TrackDemand(const Sighting& s, PodState& st) {
  const PodObject& pod = s.pod;
  const bool waiting = !s.times.bound && !s.deleted_at.has_value() && pod.phase == "Pending" && !s.demand.empty();
  if (waiting && !st.demand.has_value()) {
    st.demand = DemandRow{pod.created, std::nullopt};
    std::string resource = s.demand.units.front().resource;
    pending_.demands.push_back(
        {pod.uid, resource, s.demand.model, std::max<int64_t>(1, s.demand.TotalMilli()), pod.created, std::nullopt});
  } else if (st.demand.has_value() && !st.demand->to.has_value() && !waiting) {
    CloseDemand(pod.uid, s.times.bound ? s.times.scheduled.value_or(s.observed) : s.deleted_at.value_or(s.observed),
                st);
  }
}

// Ends the pod's unmet demand at `at` (never before it began).
void Reconciler::CloseDemand(const std::string& uid, absl::Time at, PodState& st) {
  st.demand->to = std::max(at, st.demand->from);
  pending_.close_demands.push_back({uid, "", st.demand->from, *st.demand->to});
}

// The pod's row as this observation shows it.
store::LivePod Reconciler::RowOf(const Sighting& s, const PodState& st) {
  const PodObject& pod = s.pod;
  store::LivePod row;
  store::Pod& p = row.pod;
  p.uid = pod.uid;
  p.namespace_name = pod.namespace_name;
  p.name = pod.name;
  p.team = PodTeamLabel(pod.labels, options_.teams);
  std::string unresolved;
  const WorkloadRef workload = controllers_.TopController(pod, &unresolved);
  if (!unresolved.empty()) waiting_for_controller_[unresolved].insert(pod.uid);
  p.workload_kind = workload.kind;
  p.workload_name = workload.name;
  p.phase = pod.phase;
  p.created = pod.created;
  p.scheduled = s.times.scheduled;
  p.deleted = s.deleted_at;
  p.requested_milli = s.demand.TotalMilli();
  p.unplaced = st.holds.empty() && !s.times.bound;
  row.node = pod.node_name;
  return row;
}

void Reconciler::ForgetPod(const std::string& uid) { pods_.erase(uid); }

void Reconciler::Vanish(const std::string& uid, absl::Time at) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodState& st = it->second;
  CloseHolds(uid, st.row.node, at, st);
  if (st.demand.has_value() && !st.demand->to.has_value()) CloseDemand(uid, at, st);
  if (!st.orphan && st.row_known) {
    store::LivePod row = st.row;
    row.pod.deleted = at;
    pending_.pods.push_back(row);
  }
  ForgetPod(uid);
}

void Reconciler::PodsListed(const std::set<std::string>& uids, absl::Time observed) {
  std::vector<std::string> gone;
  for (const auto& [uid, st] : pods_) {
    if (!uids.count(uid)) gone.push_back(uid);
  }
  for (const auto& uid : gone) Vanish(uid, observed);
  relisting_pods_ = false;
  std::vector<std::pair<PodObject, absl::Time>> deferred = std::move(deferred_);
  deferred_.clear();
  std::sort(deferred.begin(), deferred.end(), [](const auto& a, const auto& b) {
    const absl::Time ta = TimesOf(a.first, a.second).hold_from.value_or(absl::InfinitePast());
    const absl::Time tb = TimesOf(b.first, b.second).hold_from.value_or(absl::InfinitePast());
    return ta != tb ? ta < tb : a.first.uid < b.first.uid;
  });
  for (const auto& [pod, seen_at] : deferred) ApplyPod(pod, seen_at, false);
  if (!gone.empty()) {
    Logger("k8s")->info("cluster {}: {} pods vanished while not watched; closed at {}", options_.cluster, gone.size(),
                        absl::FormatTime(observed));
  }
  if (metrics_ != nullptr) metrics_->pods_tracked.Set(static_cast<double>(pods_.size()));
}

void Reconciler::PodGone(const std::string& uid, absl::Time observed) {
  Vanish(uid, observed);
  if (metrics_ != nullptr) metrics_->pods_tracked.Set(static_cast<double>(pods_.size()));
}

void Reconciler::SetAside(store::QuarantineRecord record, const std::string& reason) {
  record.source = "k8s";
  record.cluster = options_.cluster;
  // Keys and reasons carry hostile text too, and the columns are text.
  record.object_key = store::BoundedQuarantinePayload(std::move(record.object_key));
  record.reason = store::BoundedQuarantinePayload(record.reason.empty() ? reason : std::move(record.reason));
  Logger("k8s")->warn("cluster {}: set aside {} in the quarantine ({}): {}", options_.cluster, record.object_key,
                      reason, record.reason);
  if (metrics_ != nullptr) metrics_->Quarantined(reason).Increment();
  pending_.quarantine.push_back(std::move(record));
}

// Takes the records the store would refuse out of `batch`, setting each aside.
void Reconciler::SetAsideInvalid(store::InventoryChanges& batch) {
  store::InventoryChanges valid;
  valid.cluster = batch.cluster;
  valid.quarantine = std::move(batch.quarantine);
  const size_t n = store::RecordCount(batch);
  size_t run = 0;  // the first record of the current run of valid ones
  for (size_t i = 0; i < n; ++i) {
    const absl::Status status = store::ValidateRecord(batch, i);
    if (status.ok()) continue;
    store::AppendChanges(valid, store::RecordRange(batch, run, i));
    SetAside({0, "", "", store::RecordKey(batch, i), std::string(status.message()), store::RecordText(batch, i),
              clock_->Now()},
             "invalid");
    run = i + 1;
  }
  store::AppendChanges(valid, store::RecordRange(batch, run, n));
  batch = std::move(valid);
}

// What was not written goes back in front of what changed since.
void Reconciler::Requeue(store::InventoryChanges unwritten) {
  store::AppendChanges(unwritten, std::move(pending_));
  pending_ = std::move(unwritten);
}

absl::Status Reconciler::Write(store::InventoryChanges batch) {
  absl::Status status = repo_->Apply(batch);
  if (status.ok() || !Refused(status)) {
    if (!status.ok()) Requeue(std::move(batch));
    return status;
  }
  std::vector<store::QuarantineRecord> aside = std::move(batch.quarantine);
  batch.quarantine.clear();
  const size_t n = store::RecordCount(batch);
  size_t written = 0;
  const store::RefusedRecords how{
      [&](size_t begin, size_t end) { return repo_->Apply(store::RecordRange(batch, begin, end)); }, Refused,
      [&](size_t i, const absl::Status& refusal) {
        SetAside({0, "", "", store::RecordKey(batch, i), std::string(refusal.message()), store::RecordText(batch, i),
                  clock_->Now()},
                 "refused");
      }};
  const absl::Status outage = store::WriteAroundRefusals(n, status, how, written);
  // What was set aside is stored after the rest, in its own transaction.
  store::InventoryChanges rest = store::RecordRange(batch, written, n);
  rest.quarantine = std::move(aside);
  rest.quarantine.insert(rest.quarantine.end(), std::make_move_iterator(pending_.quarantine.begin()),
                         std::make_move_iterator(pending_.quarantine.end()));
  pending_.quarantine.clear();
  if (!outage.ok()) {
    Requeue(std::move(rest));
    return outage;
  }
  status = repo_->Apply(rest);
  if (Refused(status)) {
    // Never retried: the records are named in the log instead.
    Logger("k8s")->error("cluster {}: the quarantine refused {} records: {}", options_.cluster, rest.quarantine.size(),
                         std::string(status.message()));
    return absl::OkStatus();
  }
  if (!status.ok()) Requeue(std::move(rest));
  return status;
}

absl::Status Reconciler::Flush() {
  if (pending_.empty()) return absl::OkStatus();
  store::InventoryChanges batch = std::move(pending_);
  pending_ = store::InventoryChanges{};
  pending_.cluster = options_.cluster;
  // Checked record by record first, so that a malformed one never reaches the store with others.
  if (!store::ValidateChanges(batch).ok()) SetAsideInvalid(batch);
  store::AppendChanges(batch, std::move(pending_));
  pending_ = store::InventoryChanges{};
  pending_.cluster = options_.cluster;
  const absl::Status status = Write(std::move(batch));
  if (!status.ok()) {
    if (metrics_ != nullptr) metrics_->store_write_errors.Increment();
    return status;
  }
  if (metrics_ != nullptr) metrics_->store_writes.Increment();
  return absl::OkStatus();
}

}  // namespace fleetcap::k8s
