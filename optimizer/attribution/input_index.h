#pragma once
// The attribution engine's index of its input (attribution_engine.h): every
// name a dense id in name order, the usable devices in the order an hour's
// work goes, the holds cut where the policy in force gives their pod another
// team, and the usage by pod and device. Facts it cannot use are rejected
// into the report, each costing only itself. Internal to the engine.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_facts.h"
#include "optimizer/attribution/attribution_lines.h"
#include "optimizer/attribution/price_schedule.h"
#include "optimizer/attribution/team_schedule.h"

namespace fleetcap::attribution::internal {

// Money is computed first in "weight" units, micro-units x milli-devices x
// seconds per hour: a price (micro per device-hour) times milli-devices
// times seconds is exact in integers. One device-hour is 1000 x 3600 of them.
inline constexpr Int128 kWeightPerMicro = 1000 * 3600;
inline constexpr int64_t kSecondsPerHour = 3600;

inline int64_t Overlap(int64_t a_from, int64_t a_to, int64_t b_from, int64_t b_to) {
  return std::max<int64_t>(0, std::min(a_to, b_to) - std::max(a_from, b_from));
}

inline uint64_t PodDevice(uint32_t pod, uint32_t device) { return (uint64_t{pod} << 32) | device; }

// Strings as dense ids numbered in name order, so that comparing ids
// compares names: Add every name, Seal, then look up.
class Dictionary {
 public:
  void Add(const std::string& s) { names_.push_back(s); }
  void Seal();
  uint32_t Id(const std::string& s) const { return ids_.at(s); }
  std::optional<uint32_t> Find(const std::string& s) const {
    auto it = ids_.find(s);
    return it == ids_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
  }
  const std::string& Name(uint32_t id) const { return names_[id]; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> ids_;
};

struct Device {
  uint32_t key;  // (cluster, device_id)
  uint32_t cluster, model, node;
  uint32_t prices;  // index of its price timeline
  int64_t from, to;
};

// A hold, or the part of one with a single team.
struct Piece {
  uint32_t device;  // device key
  uint32_t pod;
  uint32_t team, ns, workload;
  int64_t milli;
  int64_t from, to;
  bool shared;  // in a shared namespace
};

struct Usage {
  uint64_t pod_device;
  int64_t minute;
  int64_t used;
};

struct InputIndex {
  int64_t start = 0, end = 0;  // the window, in seconds
  Dictionary clusters, models, teams, namespaces, workloads;
  std::unordered_map<std::string, uint32_t> device_keys, nodes, pods;  // by (cluster, name)
  // Names by id: the devices' and nodes' always (each hour's device use
  // names them), the pods' only when asked for (an explanation's).
  std::vector<std::string> node_names, device_names;
  std::vector<std::string> pod_names;
  std::vector<std::vector<PricePeriod>> price_timelines;
  std::vector<Device> devices;        // by (cluster, model, node, key, from): the order of an hour's work
  std::vector<size_t> device_starts;  // indices into devices, by `from`
  std::vector<Piece> pieces;          // by `from`
  std::vector<Usage> usage;           // by (pod_device, minute)
  std::unordered_map<uint64_t, std::pair<size_t, size_t>> usage_ranges;
};

// Indexes the facts of `input` within [start, end), the team of each hold
// from `teams`; rejected facts and over-held devices go into `report`.
InputIndex IndexInput(const AttributionInput& input, const TeamSchedule& teams, absl::Time start, absl::Time end,
                      bool keep_names, AttributionReport* report);

}  // namespace fleetcap::attribution::internal
