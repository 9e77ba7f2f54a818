#include "store/memory_live_inventory_repository.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"

#include "common/glob.h"
#include "common/status_macros.h"
#include "store/live_inventory_records.h"

namespace fleetcap::store {

absl::Status MemoryLiveInventoryRepository::Apply(const InventoryChanges& c) {
  FLEETCAP_RETURN_IF_ERROR(ValidateChanges(c));
  if (fail_applies_ > 0) {
    --fail_applies_;
    return absl::UnavailableError("injected failure");
  }
  for (size_t i = 0; i < RecordCount(c); ++i) {
    const std::string key = RecordKey(c, i);
    for (const auto& text : refused_) {
      if (key.find(text) != std::string::npos) return absl::InvalidArgumentError("injected refusal of " + key);
    }
  }
  ++applies_;
  ClusterState& st = clusters_[c.cluster];
  for (const auto& q : c.quarantine) {
    st.quarantine.push_back(q);
    st.quarantine.back().payload = BoundedQuarantinePayload(q.payload);
  }
  for (const auto& t : c.types) st.types.emplace(t.model, t);
  for (const auto& n : c.namespaces) st.namespaces[n.name] = n;
  for (const auto& n : c.nodes) {
    auto [it, inserted] = st.nodes.emplace(std::make_pair(n.node.name, n.node.in_service_from), n);
    if (!inserted) {
      auto to = it->second.node.in_service_to;
      it->second = n;
      if (to.has_value()) it->second.node.in_service_to = to;
    }
  }
  for (const auto& d : c.devices) {
    auto [it, inserted] = st.devices.emplace(std::make_pair(d.device_id, d.in_service_from), d);
    if (!inserted) {
      auto to = it->second.in_service_to;
      it->second = d;
      if (to.has_value()) it->second.in_service_to = to;
    }
  }
  for (const auto& p : c.pods) {
    auto [it, inserted] = st.pods.emplace(p.pod.uid, p);
    if (!inserted) {
      auto deleted = it->second.pod.deleted;
      it->second = p;
      if (deleted.has_value()) it->second.pod.deleted = deleted;
    }
  }
  for (const auto& h : c.holds) {
    auto [it, inserted] = st.holds.emplace(std::make_tuple(h.pod_uid, h.device_id, h.from), h);
    if (!inserted && !it->second.to.has_value()) it->second.to = h.to;
  }
  for (const auto& d : c.demands) {
    auto [it, inserted] = st.demands.emplace(std::make_pair(d.pod_uid, d.from), d);
    if (!inserted) {
      auto to = it->second.to;
      it->second = d;
      if (to.has_value()) it->second.to = to;
    }
  }
  auto close = [](std::optional<absl::Time>& to, absl::Time from, absl::Time at) {
    if (!to.has_value()) to = std::max(from, at);
  };
  for (const auto& x : c.close_nodes) {
    auto it = st.nodes.find({x.key, x.from});
    if (it != st.nodes.end()) close(it->second.node.in_service_to, x.from, x.to);
  }
  for (const auto& x : c.close_devices) {
    auto it = st.devices.find({x.key, x.from});
    if (it != st.devices.end()) close(it->second.in_service_to, x.from, x.to);
  }
  for (const auto& x : c.close_holds) {
    auto it = st.holds.find({x.key, x.device_id, x.from});
    if (it != st.holds.end()) close(it->second.to, x.from, x.to);
  }
  for (const auto& x : c.close_demands) {
    auto it = st.demands.find({x.key, x.from});
    if (it != st.demands.end()) close(it->second.to, x.from, x.to);
  }
  return absl::OkStatus();
}

absl::StatusOr<LiveInventory> MemoryLiveInventoryRepository::LoadLive(const std::string& cluster) {
  LiveInventory live;
  auto found = clusters_.find(cluster);
  if (found == clusters_.end()) return live;
  const ClusterState& st = found->second;
  for (const auto& [key, n] : st.nodes) {
    if (!n.node.in_service_to.has_value()) live.nodes.push_back(n);
  }
  for (const auto& [key, d] : st.devices) {
    if (!d.in_service_to.has_value()) live.devices.push_back(d);
  }
  for (const auto& [uid, p] : st.pods) {
    if (!p.pod.deleted.has_value()) live.pods.push_back(p);
  }
  auto live_pod = [&](const std::string& uid) {
    auto it = st.pods.find(uid);
    return it != st.pods.end() && !it->second.pod.deleted.has_value();
  };
  for (const auto& [key, h] : st.holds) {
    if (live_pod(h.pod_uid) || !h.to.has_value()) live.holds.push_back(h);
  }
  for (const auto& [key, d] : st.demands) {
    if (live_pod(d.pod_uid) || !d.to.has_value()) live.demands.push_back(d);
  }
  return live;
}

const MemoryLiveInventoryRepository::ClusterState* MemoryLiveInventoryRepository::State(
    const std::string& cluster) const {
  auto it = clusters_.find(cluster);
  return it == clusters_.end() ? nullptr : &it->second;
}

std::vector<std::string> MemoryLiveInventoryRepository::ClusterNames() const {
  std::vector<std::string> names;
  for (const auto& [name, state] : clusters_) names.push_back(name);
  return names;
}

namespace {

bool Covers(absl::Time from, const std::optional<absl::Time>& to, absl::Time at) {
  return from <= at && (!to.has_value() || *to > at);
}

void SummarizeClusterAt(const MemoryLiveInventoryRepository::ClusterState& state, absl::Time at,
                        std::map<std::string, ModelCount>& out) {
  std::map<std::string, std::string> model_in_service;  // device id -> model
  for (const auto& [key, d] : state.devices) {
    if (!Covers(d.in_service_from, d.in_service_to, at)) continue;
    model_in_service[d.device_id] = d.model;
    ModelCount& count = out[d.model];
    count.model = d.model;
    count.devices += 1;
  }
  for (const auto& [key, h] : state.holds) {
    if (!Covers(h.from, h.to, at)) continue;
    if (auto it = model_in_service.find(h.device_id); it != model_in_service.end()) {
      out[it->second].held_milli += h.milli;
    }
  }
}

}  // namespace

absl::StatusOr<std::vector<ModelCount>> MemoryLiveInventoryRepository::SummarizeAt(const std::string& cluster,
                                                                                   absl::Time at) {
  std::map<std::string, ModelCount> by_model;
  if (cluster.empty()) {
    for (const auto& [name, state] : clusters_) SummarizeClusterAt(state, at, by_model);
  } else {
    auto it = clusters_.find(cluster);
    if (it == clusters_.end()) return absl::NotFoundError(absl::StrCat("cluster \"", cluster, "\" is not known"));
    SummarizeClusterAt(it->second, at, by_model);
  }
  std::vector<ModelCount> out;
  for (auto& [model, count] : by_model) out.push_back(count);
  return out;
}

absl::StatusOr<std::map<std::string, std::string>> MemoryLiveInventoryRepository::SharedNodeLabels(
    const std::string& model, const std::string& pool, const std::string& cluster) {
  std::optional<std::map<std::string, std::string>> shared;  // none: no node seen yet
  for (const auto& [name, state] : clusters_) {
    if (!GlobMatch(cluster, name)) continue;
    std::set<std::string> nodes_of_model;
    for (const auto& [key, d] : state.devices) {
      if (!d.in_service_to.has_value() && d.model == model) nodes_of_model.insert(d.node);
    }
    for (const auto& [key, n] : state.nodes) {
      if (n.node.in_service_to.has_value() || nodes_of_model.count(n.node.name) == 0) continue;
      if (!pool.empty() && n.node.pool != pool) continue;
      std::map<std::string, std::string> labels;
      if (!n.model_label_key.empty()) labels[n.model_label_key] = n.model_label_value;
      if (!n.pool_label_key.empty() && !n.node.pool.empty()) labels[n.pool_label_key] = n.node.pool;
      if (!shared.has_value()) {
        shared = std::move(labels);
        continue;
      }
      for (auto it = shared->begin(); it != shared->end();) {
        auto found = labels.find(it->first);
        it = found != labels.end() && found->second == it->second ? std::next(it) : shared->erase(it);
      }
    }
  }
  return shared.value_or(std::map<std::string, std::string>{});
}

}  // namespace fleetcap::store
