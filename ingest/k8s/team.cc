#include "ingest/k8s/team.h"

#include <algorithm>

namespace fleetcap::k8s {
namespace {

const std::string* Find(const std::map<std::string, std::string>& values, const std::vector<std::string>& keys) {
  for (const auto& key : keys) {
    auto it = values.find(key);
    if (it != values.end() && !it->second.empty()) return &it->second;
  }
  return nullptr;
}

}  // namespace

std::string ResolveTeam(const std::map<std::string, std::string>& pod_labels, const std::string& namespace_name,
                        const NamespaceObject* ns, const std::map<std::string, std::string>& policy,
                        const TeamConfig& config) {
  if (const std::string* team = Find(pod_labels, config.pod_label_keys)) return *team;
  if (ns != nullptr) {
    if (const std::string* team = Find(ns->labels, config.namespace_label_keys)) return *team;
    if (const std::string* team = Find(ns->annotations, config.namespace_annotation_keys)) return *team;
  }
  if (auto it = policy.find(namespace_name); it != policy.end() && !it->second.empty()) return it->second;
  return config.unassigned;
}

void ControllerIndex::Upsert(const ControllerObject& controller) {
  by_uid_[controller.uid] = Entry{controller.kind, controller.name, controller.controller};
}

void ControllerIndex::Remove(const std::string& uid) { by_uid_.erase(uid); }

WorkloadRef ControllerIndex::TopController(const std::string& pod_name, const std::optional<OwnerRef>& owner,
                                           std::string* unresolved_uid) const {
  if (unresolved_uid != nullptr) unresolved_uid->clear();
  if (!owner.has_value()) return {"Pod", pod_name};
  OwnerRef current = *owner;
  for (int depth = 0; depth < 16; ++depth) {
    auto it = by_uid_.find(current.uid);
    if (it == by_uid_.end()) {
      const bool watched = std::find(watched_.begin(), watched_.end(), current.kind) != watched_.end();
      if (unresolved_uid != nullptr && watched) *unresolved_uid = current.uid;
      break;
    }
    if (!it->second.controller.has_value()) break;
    current = *it->second.controller;
  }
  return {current.kind, current.name};
}

}  // namespace fleetcap::k8s
