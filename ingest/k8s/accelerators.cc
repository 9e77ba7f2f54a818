#include "ingest/k8s/accelerators.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/status_macros.h"

namespace fleetcap::k8s {
namespace {

constexpr char kNvidiaGpu[] = "nvidia.com/gpu";
constexpr char kNvidiaShared[] = "nvidia.com/gpu.shared";
constexpr char kMigPrefix[] = "nvidia.com/mig-";
constexpr char kTpu[] = "google.com/tpu";
constexpr char kAmdGpu[] = "amd.com/gpu";

const std::string* Label(const std::map<std::string, std::string>& labels, const std::vector<std::string>& keys) {
  for (const auto& key : keys) {
    auto it = labels.find(key);
    if (it != labels.end() && !it->second.empty()) return &it->second;
  }
  return nullptr;
}

// The first of `keys` the node carries with a value, as Label reads it
// (nullptr when none).
const std::string* LabelKey(const std::map<std::string, std::string>& labels, const std::vector<std::string>& keys) {
  for (const auto& key : keys) {
    auto it = labels.find(key);
    if (it != labels.end() && !it->second.empty()) return &key;
  }
  return nullptr;
}

// Which label named the model, and its raw value.
void NoteModelLabel(const NodeObject& node, const std::vector<std::string>& keys, NodeAccelerators& acc) {
  if (const std::string* key = LabelKey(node.labels, keys); key != nullptr) {
    acc.model_label_key = *key;
    acc.model_label_value = node.labels.at(*key);
  }
}

int LabelInt(const std::map<std::string, std::string>& labels, const std::string& key, int fallback) {
  auto it = labels.find(key);
  int value = 0;
  if (it == labels.end() || !absl::SimpleAtoi(it->second, &value) || value < 1) return fallback;
  return value;
}

// Whole units of a resource (milli-units / 1000, rounded down).
int64_t Units(const std::map<std::string, int64_t>& resources, const std::string& name) {
  auto it = resources.find(name);
  return it == resources.end() || it->second < 0 ? 0 : it->second / 1000;
}

// a / b rounded up, for a >= 0 (0 otherwise), without overflowing near INT64_MAX.
int64_t CeilDiv(int64_t a, int64_t b) { return b <= 0 || a <= 0 ? 0 : a / b + (a % b != 0 ? 1 : 0); }

// a + b, held at INT64_MAX: only reached by objects CheckDemandArithmetic refuses.
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? (b > 0 ? INT64_MAX : INT64_MIN) : sum;
}

int ParentSlices(const std::string& model, const AcceleratorConfig& config) {
  for (const auto& [needle, slices] : config.mig_slices) {
    if (absl::StrContains(model, needle) && slices > 0) return slices;
  }
  return config.default_mig_slices > 0 ? config.default_mig_slices : 7;
}

int32_t SliceMilli(int slices, int parent) {
  return static_cast<int32_t>(std::min<int64_t>(1000, int64_t{slices} * 1000 / parent));
}

// "tpu-v5p-slice" -> "tpu-v5p", "tpu-v5-lite-podslice" -> "tpu-v5-lite".
std::string TpuModel(absl::string_view label) {
  absl::string_view model = label;
  if (!absl::ConsumeSuffix(&model, "-podslice")) absl::ConsumeSuffix(&model, "-slice");
  return std::string(model);
}

// The MIG profile of a MIG resource ("nvidia.com/mig-3g.40gb" -> "3g.40gb",
// with a ".shared" suffix reported through `shared`).
std::string MigProfileOf(absl::string_view resource, bool* shared) {
  absl::string_view profile = resource;
  absl::ConsumePrefix(&profile, kMigPrefix);
  *shared = absl::ConsumeSuffix(&profile, ".shared");
  return std::string(profile);
}

NodeAccelerators DescribeNvidia(const NodeObject& node, const std::map<std::string, int64_t>& res,
                                const AcceleratorConfig& config) {
  NodeAccelerators acc;
  acc.vendor = "nvidia";
  acc.resource_name = kNvidiaGpu;
  acc.family = "gpu";
  const std::string* product = Label(node.labels, config.nvidia_model_labels);
  NoteModelLabel(node, config.nvidia_model_labels, acc);
  std::string model = product != nullptr ? *product : config.fallback_model;
  // GPU feature discovery decorates the product: -SHARED under time-slicing,
  // -MIG-<profile> under the single MIG strategy.
  absl::string_view bare = model;
  absl::ConsumeSuffix(&bare, "-SHARED");
  std::string single_profile;
  if (auto pos = bare.find("-MIG-"); pos != absl::string_view::npos) {
    single_profile = std::string(bare.substr(pos + 5));
    bare = bare.substr(0, pos);
  }
  acc.model = std::string(bare);
  const int parent = ParentSlices(acc.model, config);
  acc.replicas = LabelInt(node.labels, "nvidia.com/gpu.replicas", 1);
  const std::string strategy =
      node.labels.count("nvidia.com/mig.strategy") ? node.labels.at("nvidia.com/mig.strategy") : "";
  const bool single = strategy == "single" && MigProfileSlices(single_profile) > 0;

  const int64_t gpu_units = Units(res, kNvidiaGpu);
  const int64_t shared_units = Units(res, kNvidiaShared);
  int64_t devices = 0;
  if (single) {
    const int g = MigProfileSlices(single_profile);
    acc.sharing = "mig-single";
    acc.units[kNvidiaGpu] = {static_cast<int32_t>(SliceMilli(g, parent) / acc.replicas), false};
    const int64_t mig_devices = CeilDiv(gpu_units, acc.replicas);
    devices = CeilDiv(mig_devices, std::max(1, parent / g));
  } else {
    if (acc.replicas > 1) {
      acc.sharing = "time-slicing";
      acc.units[kNvidiaGpu] = {1000 / acc.replicas, false};
      acc.units[kNvidiaShared] = {1000 / acc.replicas, false};
      devices = CeilDiv(gpu_units + shared_units, acc.replicas);
    } else {
      acc.units[kNvidiaGpu] = {1000, true};
      if (shared_units > 0) acc.units[kNvidiaShared] = {1000, true};
      devices = gpu_units + shared_units;
    }
    int64_t mig_slices = 0;
    for (const auto& [name, milli] : res) {
      if (!absl::StartsWith(name, kMigPrefix)) continue;
      bool shared = false;
      const std::string profile = MigProfileOf(name, &shared);
      const int g = MigProfileSlices(profile);
      if (g == 0) continue;
      // Time-sliced MIG devices are advertised once per replica: feature
      // discovery labels each profile's replicas, so that counting slices
      // does not make one device of every replica.
      const int replicas =
          LabelInt(node.labels, absl::StrCat(kMigPrefix, profile, ".replicas"), shared ? acc.replicas : 1);
      acc.units[name] = {static_cast<int32_t>(SliceMilli(g, parent) / replicas), false};
      mig_slices = SaturatingAdd(mig_slices, CeilDiv(milli / 1000, replicas) * g);
    }
    if (mig_slices > 0) {
      acc.sharing = "mig-mixed";
      devices += CeilDiv(mig_slices, parent);
      // Feature discovery counts every physical GPU, MIG-enabled or not.
      devices = std::max<int64_t>(devices, LabelInt(node.labels, "nvidia.com/gpu.count", 0));
    }
  }
  acc.devices = static_cast<int32_t>(std::min<int64_t>(devices, 1 << 16));
  return acc;
}

}  // namespace

int MigProfileSlices(const std::string& profile) {
  // A compute instance, "<c>c.<g>g.<memory>" (1c.3g.20gb): c of its GPU
  // instance's g compute slices are its own.
  if (auto c = profile.find("c."); c != std::string::npos) {
    int compute = 0;
    const int instance = MigProfileSlices(profile.substr(c + 2));
    if (!absl::SimpleAtoi(profile.substr(0, c), &compute) || compute < 1 || compute > instance) return 0;
    return compute;
  }
  // "<g>g.<memory>", e.g. 1g.5gb, 3g.40gb, 1g.10gb+me
  auto g = profile.find('g');
  if (g == std::string::npos || g == 0 || g + 1 >= profile.size() || profile[g + 1] != '.') return 0;
  int slices = 0;
  if (!absl::SimpleAtoi(profile.substr(0, g), &slices) || slices < 1 || slices > 8) return 0;
  return slices;
}

bool IsAcceleratorResource(const std::string& resource) {
  return resource == kNvidiaGpu || resource == kNvidiaShared || absl::StartsWith(resource, kMigPrefix) ||
         resource == kTpu || resource == kAmdGpu;
}

NodeAccelerators DescribeNode(const NodeObject& node, const AcceleratorConfig& config) {
  const auto& res = node.allocatable.empty() ? node.capacity : node.allocatable;
  bool nvidia = false;
  for (const auto& [name, milli] : res) {
    if (milli > 0 && (name == kNvidiaGpu || name == kNvidiaShared || absl::StartsWith(name, kMigPrefix))) nvidia = true;
  }
  if (nvidia) return DescribeNvidia(node, res, config);
  NodeAccelerators acc;
  if (Units(res, kAmdGpu) > 0) {
    acc.vendor = "amd";
    acc.resource_name = kAmdGpu;
    acc.family = "amd-gpu";
    const std::string* model = Label(node.labels, config.amd_model_labels);
    NoteModelLabel(node, config.amd_model_labels, acc);
    acc.model = model != nullptr ? *model : config.fallback_model;
    acc.devices = static_cast<int32_t>(Units(res, kAmdGpu));
    acc.units[kAmdGpu] = {1000, true};
  } else if (Units(res, kTpu) > 0) {
    acc.vendor = "google";
    acc.resource_name = kTpu;
    acc.family = "tpu";
    const std::string* model = Label(node.labels, config.tpu_model_labels);
    NoteModelLabel(node, config.tpu_model_labels, acc);
    acc.model = model != nullptr ? TpuModel(*model) : config.fallback_model;
    auto topology = node.labels.find(config.tpu_topology_label);
    if (topology != node.labels.end()) acc.topology = topology->second;
    acc.devices = static_cast<int32_t>(Units(res, kTpu));
    acc.units[kTpu] = {1000, true};
  }
  return acc;
}

std::string NodePool(const NodeObject& node, const AcceleratorConfig& config) {
  const std::string* pool = Label(node.labels, config.pool_labels);
  return pool != nullptr ? *pool : "";
}

std::string NodePoolLabel(const NodeObject& node, const AcceleratorConfig& config) {
  const std::string* key = LabelKey(node.labels, config.pool_labels);
  return key != nullptr ? *key : "";
}

std::string DeviceId(const std::string& node, const std::string& family, int index) {
  return absl::StrCat(node, "/", family, index);
}

bool ParseDeviceId(const std::string& device_id, std::string* node, int* index) {
  const size_t slash = device_id.find('/');
  if (slash == std::string::npos) return false;
  size_t digits = device_id.size();
  while (digits > slash + 1 && absl::ascii_isdigit(static_cast<unsigned char>(device_id[digits - 1]))) --digits;
  if (digits == device_id.size() || !absl::SimpleAtoi(device_id.substr(digits), index)) return false;
  *node = device_id.substr(0, slash);
  return true;
}

std::map<std::string, int64_t> EffectiveRequests(const PodObject& pod) {
  auto request_of = [](const ContainerResources& c) {
    std::map<std::string, int64_t> r = c.limits;  // a limit stands in for a missing request
    for (const auto& [name, q] : c.requests) r[name] = q;
    return r;
  };
  std::map<std::string, int64_t> sum, init_max, sidecars;
  for (const auto& c : pod.containers) {
    for (const auto& [name, q] : request_of(c)) sum[name] = SaturatingAdd(sum[name], q);
  }
  for (const auto& c : pod.init_containers) {
    const auto r = request_of(c);
    if (c.restartable) {
      for (const auto& [name, q] : r) {
        sum[name] = SaturatingAdd(sum[name], q);
        sidecars[name] = SaturatingAdd(sidecars[name], q);
      }
      for (const auto& [name, q] : sidecars) init_max[name] = std::max(init_max[name], q);
    } else {
      std::map<std::string, int64_t> with_sidecars = sidecars;
      for (const auto& [name, q] : r) with_sidecars[name] = SaturatingAdd(with_sidecars[name], q);
      for (const auto& [name, q] : with_sidecars) init_max[name] = std::max(init_max[name], q);
    }
  }
  for (const auto& [name, q] : init_max) sum[name] = std::max(sum[name], q);
  for (const auto& [name, q] : pod.overhead) sum[name] = SaturatingAdd(sum[name], q);
  for (auto it = sum.begin(); it != sum.end();) it = it->second <= 0 ? sum.erase(it) : std::next(it);
  return sum;
}

int64_t PodDemand::TotalMilli() const {
  int64_t total = 0;
  for (const auto& u : units) {
    int64_t milli = 0;
    if (__builtin_mul_overflow(u.count, int64_t{u.unit.milli}, &milli)) milli = INT64_MAX;
    total = SaturatingAdd(total, milli);
  }
  return total;
}

absl::Status CheckDemandArithmetic(const PodObject& pod) {
  struct Sum {
    int64_t milli = 0;
    std::string field;  // the last one that added to it
  };
  std::map<std::string, Sum> sums;
  auto overflow = [&](const std::string& field, const std::string& resource, absl::string_view what) {
    return absl::OutOfRangeError(
        absl::StrCat("pod ", pod.namespace_name, "/", pod.name, ": ", field, "[\"", resource, "\"]: ", what));
  };
  // Each container's request or limit, the larger: EffectiveRequests never uses more.
  auto add = [&](const ContainerResources* c, const std::map<std::string, int64_t>* overhead,
                 const std::string& field) -> absl::Status {
    std::map<std::string, std::pair<int64_t, std::string>> larger;
    if (c != nullptr) {
      for (const auto& [name, q] : c->limits) larger[name] = {q, field + ".resources.limits"};
      for (const auto& [name, q] : c->requests) {
        auto& slot = larger[name];
        if (slot.second.empty() || q >= slot.first) slot = {q, field + ".resources.requests"};
      }
    } else {
      for (const auto& [name, q] : *overhead) larger[name] = {q, field};
    }
    for (const auto& [name, quantity] : larger) {
      if (!IsAcceleratorResource(name) || quantity.first <= 0) continue;
      Sum& sum = sums[name];
      if (__builtin_add_overflow(sum.milli, quantity.first, &sum.milli)) {
        return overflow(quantity.second, name, "the pod's quantities of it overflow 64-bit milli-devices");
      }
      sum.field = quantity.second;
    }
    return absl::OkStatus();
  };
  for (size_t i = 0; i < pod.init_containers.size(); ++i) {
    FLEETCAP_RETURN_IF_ERROR(add(&pod.init_containers[i], nullptr, absl::StrCat("spec.initContainers[", i, "]")));
  }
  for (size_t i = 0; i < pod.containers.size(); ++i) {
    FLEETCAP_RETURN_IF_ERROR(add(&pod.containers[i], nullptr, absl::StrCat("spec.containers[", i, "]")));
  }
  FLEETCAP_RETURN_IF_ERROR(add(nullptr, &pod.overhead, "spec.overhead"));
  int64_t total = 0;
  for (const auto& [name, sum] : sums) {
    int64_t rounded = 0;
    if (__builtin_add_overflow(sum.milli, int64_t{999}, &rounded) ||
        __builtin_add_overflow(total, rounded / 1000 * 1000, &total)) {
      return overflow(sum.field, name,
                      absl::StrCat(sum.milli,
                                   " milli-units, rounded up to whole devices, overflow 64-bit "
                                   "milli-devices"));
    }
  }
  return absl::OkStatus();
}

namespace {

ResourceUnit UnitWithoutNode(const std::string& resource, const AcceleratorConfig& config, const std::string& model) {
  if (absl::StartsWith(resource, kMigPrefix)) {
    bool shared = false;
    const int g = MigProfileSlices(MigProfileOf(resource, &shared));
    if (g > 0) return {SliceMilli(g, ParentSlices(model, config)), false};
  }
  return {1000, resource != kNvidiaShared};
}

std::vector<int> ParseIndices(const std::string& text) {
  std::vector<int> out;
  for (absl::string_view part : absl::StrSplit(text, absl::ByAnyChar("-,"), absl::SkipWhitespace())) {
    int index = 0;
    if (!absl::SimpleAtoi(part, &index) || index < 0) return {};
    out.push_back(index);
  }
  return out;
}

PodDemand Demand(const PodObject& pod, const NodeAccelerators* node, const AcceleratorConfig& config) {
  PodDemand demand;
  for (const auto* keys : {&config.nvidia_model_labels, &config.amd_model_labels, &config.tpu_model_labels}) {
    if (const std::string* m = Label(pod.node_selector, *keys); m != nullptr && demand.model.empty()) {
      demand.model = keys == &config.tpu_model_labels ? TpuModel(*m) : *m;
    }
  }
  const std::string& model = node != nullptr ? node->model : demand.model;
  auto requests = EffectiveRequests(pod);

  // A GPU-sharing scheduler's annotation sets the share of each GPU.
  int share = 0;
  if (auto it = pod.annotations.find(config.share_milli_annotation);
      it != pod.annotations.end() && absl::SimpleAtoi(it->second, &share) && share >= 1 && share <= 1000) {
    const std::string base = node != nullptr && !node->resource_name.empty() ? node->resource_name : kNvidiaGpu;
    int64_t count = CeilDiv(requests.count(base) ? requests[base] : 0, 1000);
    requests.erase(base);
    int annotated = 0;
    if (auto c = pod.annotations.find(config.share_count_annotation);
        count == 0 && c != pod.annotations.end() && absl::SimpleAtoi(c->second, &annotated) && annotated > 0) {
      count = annotated;
    }
    if (count == 0) count = 1;
    demand.units.push_back({base, count, {static_cast<int32_t>(share), share == 1000}});
  }
  for (const auto& [resource, milli] : requests) {
    if (!IsAcceleratorResource(resource)) continue;
    UnitDemand u;
    u.resource = resource;
    u.count = CeilDiv(milli, 1000);
    auto known = node != nullptr ? node->units.find(resource) : std::map<std::string, ResourceUnit>::const_iterator();
    u.unit = node != nullptr && known != node->units.end() ? known->second : UnitWithoutNode(resource, config, model);
    if (u.unit.milli <= 0) continue;
    demand.units.push_back(std::move(u));
  }
  if (!demand.units.empty()) {
    if (auto it = pod.annotations.find(config.device_index_annotation); it != pod.annotations.end()) {
      demand.device_indices = ParseIndices(it->second);
    }
  }
  return demand;
}

}  // namespace

PodDemand DemandOn(const PodObject& pod, const NodeAccelerators& accelerators, const AcceleratorConfig& config) {
  return Demand(pod, &accelerators, config);
}

PodDemand DemandUnbound(const PodObject& pod, const AcceleratorConfig& config) { return Demand(pod, nullptr, config); }

}  // namespace fleetcap::k8s
