#include "optimizer/attribution/input_index.h"

#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "optimizer/attribution/over_held.h"

namespace fleetcap::attribution::internal {

void Dictionary::Seal() {
  std::sort(names_.begin(), names_.end());
  names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
  for (uint32_t i = 0; i < names_.size(); ++i) ids_.emplace(names_[i], i);
}

namespace {

// Devices and pods are unique within their cluster.
std::string ClusterKey(const std::string& cluster, const std::string& name) {
  std::string key = cluster;
  key.push_back('\0');
  key += name;
  return key;
}

constexpr uint32_t kUnusableHold = UINT32_MAX;

// What each hold was indexed as: its device key (kUnusableHold when
// rejected), its pod, and its teams over the window.
struct IndexedHolds {
  std::vector<uint32_t> device, pod;
  std::vector<const std::vector<TeamSpan>*> teams;
};

class Indexer {
 public:
  Indexer(const AttributionInput& input, const TeamSchedule& teams, absl::Time start, absl::Time end, bool keep_names,
          AttributionReport* report, InputIndex* index)
      : input_(input), teams_(teams), start_(start), end_(end), keep_names_(keep_names), report_(report), x_(*index) {}

  void Index() {
    x_.start = ToSeconds(start_);
    x_.end = ToSeconds(end_);
    PlaceDevices(AddDevices());
    const IndexedHolds holds = AddHolds();
    CutPieces(holds);
    FindOverHeldDevices(holds.device);
    AddUsage();
  }

 private:
  void Reject(std::string fact, std::string reason) {
    report_->rejected.push_back({std::move(fact), std::move(reason)});
  }
  std::vector<bool> AddDevices();
  void PlaceDevices(const std::vector<bool>& device_ok);
  IndexedHolds AddHolds();
  void CutPieces(const IndexedHolds& holds);
  void FindOverHeldDevices(const std::vector<uint32_t>& hold_device);
  void AddUsage();

  const AttributionInput& input_;
  const TeamSchedule& teams_;
  const absl::Time start_, end_;
  const bool keep_names_;
  AttributionReport* report_;
  InputIndex& x_;
  // The teams of each (cluster, namespace, team label) over the window.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<TeamSpan>> spans_;
};

// Which devices are usable; their names go into the dictionaries.
std::vector<bool> Indexer::AddDevices() {
  std::vector<bool> device_ok(input_.devices.size());
  for (size_t i = 0; i < input_.devices.size(); ++i) {
    const DeviceInService& d = input_.devices[i];
    if (d.cluster.empty() || d.device_id.empty() || d.model.empty()) {
      Reject(absl::StrCat("device ", d.device_id, " of ", d.cluster), "cluster, device_id and model are required");
    } else if (ToSeconds(d.from) >= ToSeconds(d.to)) {
      Reject(absl::StrCat("device ", d.device_id, " of ", d.cluster), "in service `to` is not after `from`");
    } else {
      device_ok[i] = true;
      x_.clusters.Add(d.cluster);
      x_.models.Add(d.model);
      if (x_.device_keys.emplace(ClusterKey(d.cluster, d.device_id), static_cast<uint32_t>(x_.device_keys.size()))
              .second) {
        x_.device_names.push_back(d.device_id);
      }
      if (x_.nodes.emplace(ClusterKey(d.cluster, d.node), static_cast<uint32_t>(x_.nodes.size())).second) {
        x_.node_names.push_back(d.node);
      }
    }
  }
  x_.clusters.Add("");  // fixed lines have no cluster or model
  x_.models.Add("");
  x_.clusters.Seal();
  x_.models.Seal();
  return device_ok;
}

// The usable devices within the window, in work order, with their prices.
void Indexer::PlaceDevices(const std::vector<bool>& device_ok) {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> timeline_of;  // (model, cluster)
  for (size_t i = 0; i < input_.devices.size(); ++i) {
    if (!device_ok[i]) continue;
    const DeviceInService& d = input_.devices[i];
    Device dev{x_.device_keys.at(ClusterKey(d.cluster, d.device_id)),
               x_.clusters.Id(d.cluster),
               x_.models.Id(d.model),
               x_.nodes.at(ClusterKey(d.cluster, d.node)),
               0,
               std::max(ToSeconds(d.from), x_.start),
               std::min(ToSeconds(d.to), x_.end)};
    if (dev.from >= dev.to) continue;  // outside the window
    auto [it, added] = timeline_of.emplace(std::make_pair(dev.model, dev.cluster), x_.price_timelines.size());
    if (added) x_.price_timelines.push_back(PriceTimeline(input_.prices, d.model, d.cluster));
    dev.prices = it->second;
    x_.devices.push_back(dev);
  }
  std::sort(x_.devices.begin(), x_.devices.end(), [](const Device& a, const Device& b) {
    return std::tie(a.cluster, a.model, a.node, a.key, a.from) < std::tie(b.cluster, b.model, b.node, b.key, b.from);
  });
  x_.device_starts.resize(x_.devices.size());
  std::iota(x_.device_starts.begin(), x_.device_starts.end(), size_t{0});
  std::sort(x_.device_starts.begin(), x_.device_starts.end(),
            [&](size_t a, size_t b) { return x_.devices[a].from < x_.devices[b].from; });
}

// The usable holds, their pods and teams; their names go into the dictionaries.
IndexedHolds Indexer::AddHolds() {
  IndexedHolds out;
  out.device.assign(input_.holds.size(), kUnusableHold);
  out.pod.resize(input_.holds.size());
  out.teams.resize(input_.holds.size());
  for (size_t i = 0; i < input_.holds.size(); ++i) {
    const HoldFact& h = input_.holds[i];
    auto device = x_.device_keys.find(ClusterKey(h.cluster, h.device_id));
    std::string reason;
    if (h.milli < 1 || h.milli > 1000) {
      reason = absl::StrCat("milli ", h.milli, " is not 1..1000");
    } else if (ToSeconds(h.from) >= ToSeconds(h.to)) {
      reason = "`to` is not after `from`";
    } else if (device == x_.device_keys.end()) {
      reason = "the device is not in the inventory";
    }
    if (!reason.empty()) {
      Reject(absl::StrCat("hold of pod ", h.pod_uid, " on device ", h.device_id, " of ", h.cluster), reason);
      continue;
    }
    out.device[i] = device->second;
    auto pod = x_.pods.emplace(ClusterKey(h.cluster, h.pod_uid), static_cast<uint32_t>(x_.pods.size()));
    if (pod.second && keep_names_) x_.pod_names.push_back(h.pod_uid);
    out.pod[i] = pod.first->second;
    x_.namespaces.Add(h.namespace_name);
    x_.workloads.Add(h.workload);
    auto [it, added] = spans_.try_emplace({h.cluster, h.namespace_name, h.team_label});
    if (added) {
      it->second = teams_.TeamsDuring({h.cluster, h.namespace_name, h.team_label}, start_, end_);
      for (const TeamSpan& span : it->second) x_.teams.Add(span.team);
    }
    out.teams[i] = &it->second;
  }
  x_.teams.Add(kIdleTeam);
  x_.teams.Add(policy::kUnassignedTeam);
  x_.namespaces.Add("");
  x_.workloads.Add("");
  x_.teams.Seal();
  x_.namespaces.Seal();
  x_.workloads.Seal();
  return out;
}

// Holds, cut where the policy in force gives their pod another team.
void Indexer::CutPieces(const IndexedHolds& holds) {
  const std::set<std::string> shared(input_.options.shared_namespaces.begin(), input_.options.shared_namespaces.end());
  for (size_t i = 0; i < input_.holds.size(); ++i) {
    if (holds.device[i] == kUnusableHold) continue;
    const HoldFact& h = input_.holds[i];
    const int64_t from = std::max(ToSeconds(h.from), x_.start);
    const int64_t to = std::min(ToSeconds(h.to), x_.end);
    const uint32_t ns = x_.namespaces.Id(h.namespace_name);
    const uint32_t workload = x_.workloads.Id(h.workload);
    for (const TeamSpan& span : *holds.teams[i]) {
      Piece p{holds.device[i],
              holds.pod[i],
              x_.teams.Id(span.team),
              ns,
              workload,
              h.milli,
              std::max(from, ToSeconds(span.from)),
              std::min(to, ToSeconds(span.to)),
              shared.count(h.namespace_name) > 0};
      if (p.from < p.to) x_.pieces.push_back(p);
    }
  }
  std::sort(x_.pieces.begin(), x_.pieces.end(), [](const Piece& a, const Piece& b) { return a.from < b.from; });
}

void Indexer::FindOverHeldDevices(const std::vector<uint32_t>& hold_device) {
  const std::vector<HoldFact>& holds = input_.holds;
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < holds.size(); ++i) {
    if (hold_device[i] != kUnusableHold) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return hold_device[a] < hold_device[b]; });
  std::vector<HeldInterval> held;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    held.clear();
    for (; j < order.size() && hold_device[order[j]] == hold_device[order[i]]; ++j) {
      const HoldFact& h = holds[order[j]];
      held.push_back({std::max(ToSeconds(h.from), x_.start), std::min(ToSeconds(h.to), x_.end), h.milli, order[j]});
    }
    for (const OverHeldSpan& span : FindOverHeld(held)) {
      OverHeldDevice o{holds[order[i]].cluster,
                       holds[order[i]].device_id,
                       absl::FromUnixSeconds(span.from),
                       absl::FromUnixSeconds(span.to),
                       span.milli,
                       {}};
      for (uint32_t h : span.holds) o.pod_uids.push_back(holds[h].pod_uid);
      report_->over_held.push_back(std::move(o));
    }
    i = j;
  }
}

// Telemetry, by pod and device, one sample a minute.
void Indexer::AddUsage() {
  std::vector<Usage>& usage = x_.usage;
  for (const UsageMinute& u : input_.usage) {
    if (u.used_milli < 0 || u.used_milli > 1000) {
      Reject(absl::StrCat("usage of pod ", u.pod_uid, " on device ", u.device_id, " of ", u.cluster, " at ",
                          absl::FormatTime(u.minute, absl::UTCTimeZone())),
             absl::StrCat("used_milli ", u.used_milli, " is not 0..1000"));
      continue;
    }
    auto pod = x_.pods.find(ClusterKey(u.cluster, u.pod_uid));
    auto device = x_.device_keys.find(ClusterKey(u.cluster, u.device_id));
    if (pod == x_.pods.end() || device == x_.device_keys.end()) continue;  // no hold: nothing to charge
    const int64_t minute = ToSeconds(u.minute) - ((ToSeconds(u.minute) % 60) + 60) % 60;
    usage.push_back({PodDevice(pod->second, device->second), minute, u.used_milli});
  }
  std::stable_sort(usage.begin(), usage.end(), [](const Usage& a, const Usage& b) {
    return std::tie(a.pod_device, a.minute) < std::tie(b.pod_device, b.minute);
  });
  // Two samples of one minute would count it twice: the first is kept.
  auto repeated = std::unique(usage.begin(), usage.end(), [](const Usage& a, const Usage& b) {
    return a.pod_device == b.pod_device && a.minute == b.minute;
  });
  if (repeated != usage.end()) {
    Reject(absl::StrCat(usage.end() - repeated, " usage samples"),
           "a second sample of the same pod, device and minute");
    usage.erase(repeated, usage.end());
  }
  for (size_t i = 0; i < usage.size();) {
    size_t j = i + 1;
    while (j < usage.size() && usage[j].pod_device == usage[i].pod_device) ++j;
    x_.usage_ranges.emplace(usage[i].pod_device, std::make_pair(i, j));
    i = j;
  }
}

}  // namespace

InputIndex IndexInput(const AttributionInput& input, const TeamSchedule& teams, absl::Time start, absl::Time end,
                      bool keep_names, AttributionReport* report) {
  InputIndex index;
  Indexer(input, teams, start, end, keep_names, report, &index).Index();
  return index;
}

}  // namespace fleetcap::attribution::internal
