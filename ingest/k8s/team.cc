#include "ingest/k8s/team.h"

#include <algorithm>

namespace fleetcap::k8s {

std::string PodTeamLabel(const std::map<std::string, std::string>& pod_labels, const TeamConfig& config) {
  for (const auto& key : config.pod_label_keys) {
    auto it = pod_labels.find(key);
    if (it != pod_labels.end() && !it->second.empty()) return it->second;
  }
  return "";
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
