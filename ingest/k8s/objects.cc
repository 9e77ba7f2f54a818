#include "ingest/k8s/objects.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "ingest/k8s/quantity.h"
#include "nlohmann/json.hpp"

namespace fleetcap::k8s {
namespace {

using nlohmann::json;

// Decoding errors carry the field path; the object's name is added by the caller.
class Decoder {
 public:
  explicit Decoder(std::string what) : what_(std::move(what)) {}

  void SetName(const std::string& name) { what_ = absl::StrCat(what_, " ", name); }

  absl::Status Error(absl::string_view field, absl::string_view message) const {
    return absl::InvalidArgumentError(absl::StrCat(what_, ": ", field, ": ", message));
  }

  // The object at `key`, or nullptr when absent or null; error when of another type.
  absl::StatusOr<const json*> Object(const json& parent, const char* key, absl::string_view field) const {
    auto it = parent.find(key);
    if (it == parent.end() || it->is_null()) return nullptr;
    if (!it->is_object()) return Error(field, "not an object");
    return &*it;
  }

  absl::StatusOr<const json*> Array(const json& parent, const char* key, absl::string_view field) const {
    auto it = parent.find(key);
    if (it == parent.end() || it->is_null()) return nullptr;
    if (!it->is_array()) return Error(field, "not an array");
    return &*it;
  }

  absl::StatusOr<std::string> String(const json& parent, const char* key, absl::string_view field) const {
    auto it = parent.find(key);
    if (it == parent.end() || it->is_null()) return std::string();
    if (!it->is_string()) return Error(field, "not a string");
    return it->get<std::string>();
  }

  absl::StatusOr<std::optional<absl::Time>> Time(const json& parent, const char* key, absl::string_view field) const {
    FLEETCAP_ASSIGN_OR_RETURN(auto text, String(parent, key, field));
    if (text.empty()) return std::optional<absl::Time>();
    auto t = ParseRfc3339(field, text);
    if (!t.ok()) return Error(field, absl::StrCat("\"", text, "\" is not an RFC 3339 time"));
    return std::optional<absl::Time>(*t);
  }

  // A map of quantities; with `extended_only`, names without a domain are skipped.
  absl::Status Quantities(const json& parent, const char* key, absl::string_view field, bool extended_only,
                          std::map<std::string, int64_t>& out) const {
    FLEETCAP_ASSIGN_OR_RETURN(auto object, Object(parent, key, field));
    if (object == nullptr) return absl::OkStatus();
    for (const auto& [name, value] : object->items()) {
      if (extended_only && name.find('/') == std::string::npos) continue;
      const std::string path = absl::StrCat(field, "[\"", name, "\"]");
      std::string text;
      if (value.is_string()) {
        text = value.get<std::string>();
      } else if (value.is_number_integer()) {
        text = std::to_string(value.get<int64_t>());
      } else {
        return Error(path, "not a quantity string");
      }
      auto milli = ParseQuantityMilli(text);
      if (!milli.ok()) return Error(path, milli.status().message());
      out[name] = *milli;
    }
    return absl::OkStatus();
  }

  // String map; with `keep` non-null only those keys.
  absl::Status StringMap(const json& parent, const char* key, absl::string_view field,
                         const std::set<std::string>* keep, std::map<std::string, std::string>& out) const {
    FLEETCAP_ASSIGN_OR_RETURN(auto object, Object(parent, key, field));
    if (object == nullptr) return absl::OkStatus();
    for (const auto& [name, value] : object->items()) {
      if (keep != nullptr && keep->count(name) == 0) continue;
      if (!value.is_string()) return Error(absl::StrCat(field, "[\"", name, "\"]"), "not a string");
      out[name] = value.get<std::string>();
    }
    return absl::OkStatus();
  }

 private:
  std::string what_;
};

struct Meta {
  std::string name, namespace_name, uid, resource_version;
  std::optional<absl::Time> created, deletion;
  std::optional<OwnerRef> controller;
};

absl::StatusOr<const json*> ReadMeta(const json& object, Decoder& d, Meta& meta) {
  if (!object.is_object()) return d.Error("(object)", "not a JSON object");
  const json* m = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(m, d.Object(object, "metadata", "metadata"));
  if (m == nullptr) return d.Error("metadata", "missing");
  FLEETCAP_ASSIGN_OR_RETURN(meta.name, d.String(*m, "name", "metadata.name"));
  FLEETCAP_ASSIGN_OR_RETURN(meta.namespace_name, d.String(*m, "namespace", "metadata.namespace"));
  d.SetName(meta.namespace_name.empty() ? meta.name : absl::StrCat(meta.namespace_name, "/", meta.name));
  if (meta.name.empty()) return d.Error("metadata.name", "missing");
  FLEETCAP_ASSIGN_OR_RETURN(meta.uid, d.String(*m, "uid", "metadata.uid"));
  if (meta.uid.empty()) return d.Error("metadata.uid", "missing");
  FLEETCAP_ASSIGN_OR_RETURN(meta.resource_version, d.String(*m, "resourceVersion", "metadata.resourceVersion"));
  FLEETCAP_ASSIGN_OR_RETURN(meta.created, d.Time(*m, "creationTimestamp", "metadata.creationTimestamp"));
  FLEETCAP_ASSIGN_OR_RETURN(meta.deletion, d.Time(*m, "deletionTimestamp", "metadata.deletionTimestamp"));
  const json* owners = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(owners, d.Array(*m, "ownerReferences", "metadata.ownerReferences"));
  if (owners != nullptr) {
    for (size_t i = 0; i < owners->size(); ++i) {
      const json& o = (*owners)[i];
      const std::string field = absl::StrCat("metadata.ownerReferences[", i, "]");
      if (!o.is_object()) return d.Error(field, "not an object");
      auto controller = o.find("controller");
      if (controller == o.end() || !controller->is_boolean() || !controller->get<bool>()) continue;
      OwnerRef ref;
      FLEETCAP_ASSIGN_OR_RETURN(ref.kind, d.String(o, "kind", field + ".kind"));
      FLEETCAP_ASSIGN_OR_RETURN(ref.name, d.String(o, "name", field + ".name"));
      FLEETCAP_ASSIGN_OR_RETURN(ref.uid, d.String(o, "uid", field + ".uid"));
      meta.controller = std::move(ref);
      break;
    }
  }
  return m;
}

void Earliest(std::optional<absl::Time>& acc, const std::optional<absl::Time>& t) {
  if (t.has_value() && (!acc.has_value() || *t < *acc)) acc = t;
}
void Latest(std::optional<absl::Time>& acc, const std::optional<absl::Time>& t) {
  if (t.has_value() && (!acc.has_value() || *t > *acc)) acc = t;
}

absl::Status ReadContainers(const json& spec, const char* key, Decoder& d, bool init,
                            std::vector<ContainerResources>& out) {
  const json* list = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(list, d.Array(spec, key, absl::StrCat("spec.", key)));
  if (list == nullptr) return absl::OkStatus();
  for (size_t i = 0; i < list->size(); ++i) {
    const json& c = (*list)[i];
    const std::string field = absl::StrCat("spec.", key, "[", i, "]");
    if (!c.is_object()) return d.Error(field, "not an object");
    ContainerResources r;
    const json* resources = nullptr;
    FLEETCAP_ASSIGN_OR_RETURN(resources, d.Object(c, "resources", field + ".resources"));
    if (resources != nullptr) {
      FLEETCAP_RETURN_IF_ERROR(d.Quantities(*resources, "requests", field + ".resources.requests", true, r.requests));
      FLEETCAP_RETURN_IF_ERROR(d.Quantities(*resources, "limits", field + ".resources.limits", true, r.limits));
    }
    if (init) {
      std::string policy;
      FLEETCAP_ASSIGN_OR_RETURN(policy, d.String(c, "restartPolicy", field + ".restartPolicy"));
      r.restartable = policy == "Always";
    }
    out.push_back(std::move(r));
  }
  return absl::OkStatus();
}

// Start and finish times of every container status in `key`, in its current
// and last state.
absl::Status ReadContainerStatuses(const json& status, const char* key, Decoder& d, PodObject& pod, bool app) {
  const json* list = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(list, d.Array(status, key, absl::StrCat("status.", key)));
  if (list == nullptr) return absl::OkStatus();
  for (size_t i = 0; i < list->size(); ++i) {
    const json& c = (*list)[i];
    const std::string field = absl::StrCat("status.", key, "[", i, "]");
    if (!c.is_object()) return d.Error(field, "not an object");
    for (const char* which : {"state", "lastState"}) {
      const json* state = nullptr;
      FLEETCAP_ASSIGN_OR_RETURN(state, d.Object(c, which, absl::StrCat(field, ".", which)));
      if (state == nullptr) continue;
      for (const char* kind : {"running", "terminated"}) {
        const json* s = nullptr;
        const std::string sfield = absl::StrCat(field, ".", which, ".", kind);
        FLEETCAP_ASSIGN_OR_RETURN(s, d.Object(*state, kind, sfield));
        if (s == nullptr) continue;
        std::optional<absl::Time> started, finished;
        FLEETCAP_ASSIGN_OR_RETURN(started, d.Time(*s, "startedAt", sfield + ".startedAt"));
        Earliest(pod.first_started, started);
        if (std::string(kind) == "terminated") {
          FLEETCAP_ASSIGN_OR_RETURN(finished, d.Time(*s, "finishedAt", sfield + ".finishedAt"));
          Latest(pod.last_finished, finished);
          if (app && std::string(which) == "state") ++pod.containers_terminated;
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string ResourceVersionOf(const json& object) {
  if (!object.is_object()) return "";
  auto m = object.find("metadata");
  if (m == object.end() || !m->is_object()) return "";
  auto rv = m->find("resourceVersion");
  if (rv == m->end() || !rv->is_string()) return "";
  return rv->get<std::string>();
}

absl::StatusOr<NodeObject> DecodeNode(const json& object) {
  Decoder d("node");
  Meta meta;
  const json* m = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(m, ReadMeta(object, d, meta));
  NodeObject node;
  node.name = meta.name;
  node.uid = meta.uid;
  node.resource_version = meta.resource_version;
  if (!meta.created.has_value()) return d.Error("metadata.creationTimestamp", "missing");
  node.created = *meta.created;
  FLEETCAP_RETURN_IF_ERROR(d.StringMap(*m, "labels", "metadata.labels", nullptr, node.labels));
  const json* status = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(status, d.Object(object, "status", "status"));
  if (status != nullptr) {
    FLEETCAP_RETURN_IF_ERROR(d.Quantities(*status, "capacity", "status.capacity", false, node.capacity));
    FLEETCAP_RETURN_IF_ERROR(d.Quantities(*status, "allocatable", "status.allocatable", false, node.allocatable));
  }
  return node;
}

absl::StatusOr<PodObject> DecodePod(const json& object, const DecodeOptions& options) {
  Decoder d("pod");
  Meta meta;
  const json* m = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(m, ReadMeta(object, d, meta));
  PodObject pod;
  pod.uid = meta.uid;
  pod.namespace_name = meta.namespace_name;
  pod.name = meta.name;
  pod.resource_version = meta.resource_version;
  if (!meta.created.has_value()) return d.Error("metadata.creationTimestamp", "missing");
  pod.created = *meta.created;
  pod.deletion = meta.deletion;
  pod.controller = meta.controller;
  FLEETCAP_RETURN_IF_ERROR(d.StringMap(*m, "labels", "metadata.labels", &options.pod_labels, pod.labels));
  FLEETCAP_RETURN_IF_ERROR(
      d.StringMap(*m, "annotations", "metadata.annotations", &options.pod_annotations, pod.annotations));
  const json* spec = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(spec, d.Object(object, "spec", "spec"));
  if (spec != nullptr) {
    FLEETCAP_ASSIGN_OR_RETURN(pod.node_name, d.String(*spec, "nodeName", "spec.nodeName"));
    FLEETCAP_RETURN_IF_ERROR(ReadContainers(*spec, "initContainers", d, true, pod.init_containers));
    FLEETCAP_RETURN_IF_ERROR(ReadContainers(*spec, "containers", d, false, pod.containers));
    FLEETCAP_RETURN_IF_ERROR(d.Quantities(*spec, "overhead", "spec.overhead", true, pod.overhead));
    FLEETCAP_RETURN_IF_ERROR(d.StringMap(*spec, "nodeSelector", "spec.nodeSelector", nullptr, pod.node_selector));
  }
  const json* status = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(status, d.Object(object, "status", "status"));
  if (status != nullptr) {
    FLEETCAP_ASSIGN_OR_RETURN(pod.phase, d.String(*status, "phase", "status.phase"));
    FLEETCAP_ASSIGN_OR_RETURN(pod.start_time, d.Time(*status, "startTime", "status.startTime"));
    const json* conditions = nullptr;
    FLEETCAP_ASSIGN_OR_RETURN(conditions, d.Array(*status, "conditions", "status.conditions"));
    if (conditions != nullptr) {
      for (size_t i = 0; i < conditions->size(); ++i) {
        const json& c = (*conditions)[i];
        const std::string field = absl::StrCat("status.conditions[", i, "]");
        if (!c.is_object()) return d.Error(field, "not an object");
        std::string type, value;
        FLEETCAP_ASSIGN_OR_RETURN(type, d.String(c, "type", field + ".type"));
        FLEETCAP_ASSIGN_OR_RETURN(value, d.String(c, "status", field + ".status"));
        if (type != "PodScheduled" || value != "True") continue;
        FLEETCAP_ASSIGN_OR_RETURN(pod.scheduled_at, d.Time(c, "lastTransitionTime", field + ".lastTransitionTime"));
      }
    }
    FLEETCAP_RETURN_IF_ERROR(ReadContainerStatuses(*status, "initContainerStatuses", d, pod, false));
    FLEETCAP_RETURN_IF_ERROR(ReadContainerStatuses(*status, "containerStatuses", d, pod, true));
  }
  return pod;
}

absl::StatusOr<ControllerObject> DecodeController(const json& object, const std::string& kind) {
  Decoder d(kind);
  Meta meta;
  const json* m = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(m, ReadMeta(object, d, meta));
  (void)m;
  ControllerObject c;
  c.kind = kind;
  c.namespace_name = meta.namespace_name;
  c.name = meta.name;
  c.uid = meta.uid;
  c.resource_version = meta.resource_version;
  c.controller = meta.controller;
  return c;
}

absl::StatusOr<NamespaceObject> DecodeNamespace(const json& object, const DecodeOptions& options) {
  Decoder d("namespace");
  Meta meta;
  const json* m = nullptr;
  FLEETCAP_ASSIGN_OR_RETURN(m, ReadMeta(object, d, meta));
  NamespaceObject ns;
  ns.name = meta.name;
  ns.uid = meta.uid;
  ns.resource_version = meta.resource_version;
  FLEETCAP_RETURN_IF_ERROR(d.StringMap(*m, "labels", "metadata.labels", &options.namespace_labels, ns.labels));
  if (auto s = d.StringMap(*m, "annotations", "metadata.annotations", &options.namespace_annotations, ns.annotations);
      !s.ok()) {
    return s;
  }
  return ns;
}

}  // namespace fleetcap::k8s
