#include "optimizer/attribution/attribution_engine.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_options.h"
#include "optimizer/attribution/cell_split.h"
#include "optimizer/attribution/explanation.h"
#include "optimizer/attribution/fixed_costs.h"
#include "optimizer/attribution/over_held.h"
#include "optimizer/attribution/price_schedule.h"

namespace fleetcap::attribution {
namespace {

// Money is computed first in "weight" units, micro-units x milli-devices x
// seconds per hour: a price (micro per device-hour) times milli-devices
// times seconds is exact in integers. One device-hour is 1000 x 3600 of them.
constexpr Int128 kWeightPerMicro = 1000 * 3600;
constexpr int64_t kHour = 3600;

// Strings as dense ids numbered in name order, so that comparing ids
// compares names: Add every name, Seal, then look up.
class Dictionary {
 public:
  void Add(const std::string& s) { names_.push_back(s); }
  void Seal() {
    std::sort(names_.begin(), names_.end());
    names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
    for (uint32_t i = 0; i < names_.size(); ++i) ids_.emplace(names_[i], i);
  }
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

// Devices and pods are unique within their cluster.
std::string Key(const std::string& cluster, const std::string& name) {
  std::string key = cluster;
  key.push_back('\0');
  key += name;
  return key;
}

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

// One device's time in service within the hour, cut where its price changes.
struct Segment {
  int64_t from, to;
  int64_t price;  // micro per device-hour; 0 when unpriced
  bool priced;
};

struct DeviceHour {
  uint32_t key, cluster, model, node;
  size_t first_segment, end_segment;
  Int128 capacity = 0;  // weight of the whole device over its time in service
  Int128 idle = 0;
  uint32_t cell = 0;
};

// One hold's part of one device-hour.
struct Charge {
  uint32_t device_hour;
  uint32_t piece;
  Int128 weight;
  int64_t held, used;
  int32_t sampled_seconds;  // seconds with a usage reading
  bool no_telemetry;
  bool over_held;  // its weight is its proportional part of a device charged past itself
};

// A line's idle cost over the scopes it came from, by what each gave.
void SplitIdle(int64_t idle_micro, std::vector<IdleExplanation>* scopes) {
  std::vector<Int128> weights, parts;
  for (const IdleExplanation& s : *scopes) weights.push_back(s.received);
  Apportion(idle_micro, weights, &parts);
  for (size_t i = 0; i < parts.size(); ++i) (*scopes)[i].idle_cost_micro = static_cast<int64_t>(parts[i]);
}

uint64_t PodDevice(uint32_t pod, uint32_t device) { return (uint64_t{pod} << 32) | device; }

int64_t Overlap(int64_t a_from, int64_t a_to, int64_t b_from, int64_t b_to) {
  return std::max<int64_t>(0, std::min(a_to, b_to) - std::max(a_from, b_from));
}

class Engine {
 public:
  // Attributes the hours of [start, end) of `input`.
  Engine(const AttributionInput& input, const Options& options, absl::Time start, absl::Time end)
      : input_(input), options_(options), window_start_(start), window_end_(end) {}

  // Records how the lines `request` selects are made, into `out`; before Prepare.
  void ExplainInto(const ExplainRequest& request, HourExplanation* out) {
    explain_request_ = &request;
    explanation_ = out;
  }

  void Prepare(const TeamSchedule& teams);
  absl::Status Run(const HourSink& sink);
  AttributionReport TakeReport() { return std::move(report_); }

 private:
  void Reject(std::string fact, std::string reason) {
    report_.rejected.push_back({std::move(fact), std::move(reason)});
  }
  void FindOverHeldDevices(const std::vector<uint32_t>& hold_device);
  absl::StatusOr<HourLines> Hour(int64_t hour, const std::vector<size_t>& devices, const std::vector<size_t>& pieces);
  // Adds a line and the ids it is ordered by.
  void Emit(ChargeLine line, uint32_t cluster, uint32_t model, uint32_t team, uint32_t ns, uint32_t workload);
  absl::Status Cell(int64_t hour, const std::vector<DeviceHour>& device_hours, size_t dh_begin, size_t dh_end,
                    std::vector<Charge>::const_iterator charges_begin, std::vector<Charge>::const_iterator charges_end);
  void Fixed(int64_t hour);
  // Whether the lines of this (cluster, model) are to be explained.
  bool Explaining(uint32_t cluster, uint32_t model) const;
  // What an explanation needs of a cell beyond its lines.
  struct CellRecord {
    std::vector<size_t> charge_line;                 // the line of each of the cell's charges
    std::vector<std::vector<IdleExplanation>> idle;  // by line, the idle it received from each scope
    std::vector<IdleExplanation> kept;               // kept on the idle line, by scope
  };
  // ShareIdle over one scope (`node` "" for the cluster), and with `record`
  // what each line received from it and what was kept.
  void Share(Int128 idle, const std::vector<std::pair<size_t, Int128>>& takers, const std::string& node,
             std::vector<CellLine>* lines, Int128* kept, CellRecord* record) const;
  // The holds of line `line` of a cell, its direct cost `direct_micro` split over them.
  void ExplainHolds(int64_t hour, const CellRecord& record, const std::vector<DeviceHour>& device_hours,
                    std::vector<Charge>::const_iterator charges_begin, size_t line, int64_t direct_micro,
                    LineExplanation* e) const;
  // The shared-namespace cost spread onto (or away from) line `line`.
  void ExplainShared(const std::vector<CellLine>& lines, const std::vector<Int128>& before_spread, size_t line,
                     LineExplanation* e) const;

  const AttributionInput& input_;
  const Options options_;
  const absl::Time window_start_, window_end_;
  const ExplainRequest* explain_request_ = nullptr;
  HourExplanation* explanation_ = nullptr;
  std::optional<uint32_t> explain_team_;
  // Names by id, kept only when explaining.
  std::vector<std::string> node_names_, device_names_, pod_names_;
  std::map<size_t, LineExplanation> explained_;  // by index into lines_
  int64_t start_ = 0, end_ = 0;
  Dictionary clusters_, models_, teams_, namespaces_, workloads_;
  std::unordered_map<std::string, uint32_t> device_keys_, nodes_, pods_;
  std::vector<std::vector<PricePeriod>> price_timelines_;
  std::vector<Device> devices_;        // by (cluster, model, node, key, from): the order of an hour's work
  std::vector<size_t> device_starts_;  // indices into devices_, by `from`
  std::vector<Piece> pieces_;          // by `from`
  std::vector<Usage> usage_;           // by (pod_device, minute)
  std::unordered_map<uint64_t, std::pair<size_t, size_t>> usage_ranges_;
  std::vector<int32_t> device_slot_;  // device key -> index into the hour's device-hours, -1 if none
  // The hour's work, kept between hours to reuse their memory.
  std::vector<Segment> segments_;
  std::vector<DeviceHour> device_hours_;
  std::vector<Charge> charges_;
  struct Ordered {
    std::array<uint32_t, 6> key;  // cluster, model, team, namespace, workload, kind: name order
    size_t line;
  };
  std::vector<Ordered> order_;
  std::vector<ChargeLine> lines_;
  AttributionReport report_;
};

void Engine::Prepare(const TeamSchedule& teams) {
  start_ = ToSeconds(window_start_);
  end_ = ToSeconds(window_end_);
  const std::set<std::string> shared(input_.options.shared_namespaces.begin(), input_.options.shared_namespaces.end());

  // Devices.
  std::vector<bool> device_ok(input_.devices.size());
  for (size_t i = 0; i < input_.devices.size(); ++i) {
    const DeviceInService& d = input_.devices[i];
    if (d.cluster.empty() || d.device_id.empty() || d.model.empty()) {
      Reject(absl::StrCat("device ", d.device_id, " of ", d.cluster), "cluster, device_id and model are required");
    } else if (ToSeconds(d.from) >= ToSeconds(d.to)) {
      Reject(absl::StrCat("device ", d.device_id, " of ", d.cluster), "in service `to` is not after `from`");
    } else {
      device_ok[i] = true;
      clusters_.Add(d.cluster);
      models_.Add(d.model);
      if (device_keys_.emplace(Key(d.cluster, d.device_id), static_cast<uint32_t>(device_keys_.size())).second &&
          explanation_ != nullptr) {
        device_names_.push_back(d.device_id);
      }
      if (nodes_.emplace(Key(d.cluster, d.node), static_cast<uint32_t>(nodes_.size())).second &&
          explanation_ != nullptr) {
        node_names_.push_back(d.node);
      }
    }
  }
  clusters_.Add("");  // fixed lines have no cluster or model
  models_.Add("");
  clusters_.Seal();
  models_.Seal();
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> timeline_of;  // (model, cluster)
  for (size_t i = 0; i < input_.devices.size(); ++i) {
    if (!device_ok[i]) continue;
    const DeviceInService& d = input_.devices[i];
    Device dev{device_keys_.at(Key(d.cluster, d.device_id)),
               clusters_.Id(d.cluster),
               models_.Id(d.model),
               nodes_.at(Key(d.cluster, d.node)),
               0,
               std::max(ToSeconds(d.from), start_),
               std::min(ToSeconds(d.to), end_)};
    if (dev.from >= dev.to) continue;  // outside the window
    auto [it, added] = timeline_of.emplace(std::make_pair(dev.model, dev.cluster), price_timelines_.size());
    if (added) price_timelines_.push_back(PriceTimeline(input_.prices, d.model, d.cluster));
    dev.prices = it->second;
    devices_.push_back(dev);
  }
  std::sort(devices_.begin(), devices_.end(), [](const Device& a, const Device& b) {
    return std::tie(a.cluster, a.model, a.node, a.key, a.from) < std::tie(b.cluster, b.model, b.node, b.key, b.from);
  });
  device_starts_.resize(devices_.size());
  std::iota(device_starts_.begin(), device_starts_.end(), size_t{0});
  std::sort(device_starts_.begin(), device_starts_.end(),
            [&](size_t a, size_t b) { return devices_[a].from < devices_[b].from; });
  device_slot_.assign(device_keys_.size(), -1);

  // Holds, cut where the policy in force gives their pod another team.
  constexpr uint32_t kUnusable = UINT32_MAX;
  std::vector<uint32_t> hold_device(input_.holds.size(), kUnusable), hold_pod(input_.holds.size());
  std::vector<const std::vector<TeamSpan>*> hold_teams(input_.holds.size());
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<TeamSpan>> spans;
  for (size_t i = 0; i < input_.holds.size(); ++i) {
    const HoldFact& h = input_.holds[i];
    auto device = device_keys_.find(Key(h.cluster, h.device_id));
    std::string reason;
    if (h.milli < 1 || h.milli > 1000) {
      reason = absl::StrCat("milli ", h.milli, " is not 1..1000");
    } else if (ToSeconds(h.from) >= ToSeconds(h.to)) {
      reason = "`to` is not after `from`";
    } else if (device == device_keys_.end()) {
      reason = "the device is not in the inventory";
    }
    if (!reason.empty()) {
      Reject(absl::StrCat("hold of pod ", h.pod_uid, " on device ", h.device_id, " of ", h.cluster), reason);
      continue;
    }
    hold_device[i] = device->second;
    auto pod = pods_.emplace(Key(h.cluster, h.pod_uid), static_cast<uint32_t>(pods_.size()));
    if (pod.second && explanation_ != nullptr) pod_names_.push_back(h.pod_uid);
    hold_pod[i] = pod.first->second;
    namespaces_.Add(h.namespace_name);
    workloads_.Add(h.workload);
    auto [it, added] = spans.try_emplace({h.cluster, h.namespace_name, h.team_label});
    if (added) {
      it->second = teams.TeamsDuring({h.cluster, h.namespace_name, h.team_label}, window_start_, window_end_);
      for (const TeamSpan& span : it->second) teams_.Add(span.team);
    }
    hold_teams[i] = &it->second;
  }
  teams_.Add(kIdleTeam);
  teams_.Add(policy::kUnassignedTeam);
  namespaces_.Add("");
  workloads_.Add("");
  teams_.Seal();
  namespaces_.Seal();
  workloads_.Seal();
  if (explain_request_ != nullptr) explain_team_ = teams_.Find(explain_request_->team);
  for (size_t i = 0; i < input_.holds.size(); ++i) {
    if (hold_device[i] == kUnusable) continue;
    const HoldFact& h = input_.holds[i];
    const int64_t from = std::max(ToSeconds(h.from), start_);
    const int64_t to = std::min(ToSeconds(h.to), end_);
    const uint32_t ns = namespaces_.Id(h.namespace_name);
    const uint32_t workload = workloads_.Id(h.workload);
    for (const TeamSpan& span : *hold_teams[i]) {
      Piece p{hold_device[i],
              hold_pod[i],
              teams_.Id(span.team),
              ns,
              workload,
              h.milli,
              std::max(from, ToSeconds(span.from)),
              std::min(to, ToSeconds(span.to)),
              shared.count(h.namespace_name) > 0};
      if (p.from < p.to) pieces_.push_back(p);
    }
  }
  std::sort(pieces_.begin(), pieces_.end(), [](const Piece& a, const Piece& b) { return a.from < b.from; });
  FindOverHeldDevices(hold_device);

  // Telemetry.
  for (const UsageMinute& u : input_.usage) {
    if (u.used_milli < 0 || u.used_milli > 1000) {
      Reject(absl::StrCat("usage of pod ", u.pod_uid, " on device ", u.device_id, " of ", u.cluster, " at ",
                          absl::FormatTime(u.minute, absl::UTCTimeZone())),
             absl::StrCat("used_milli ", u.used_milli, " is not 0..1000"));
      continue;
    }
    auto pod = pods_.find(Key(u.cluster, u.pod_uid));
    auto device = device_keys_.find(Key(u.cluster, u.device_id));
    if (pod == pods_.end() || device == device_keys_.end()) continue;  // no hold: nothing to charge
    const int64_t minute = ToSeconds(u.minute) - ((ToSeconds(u.minute) % 60) + 60) % 60;
    usage_.push_back({PodDevice(pod->second, device->second), minute, u.used_milli});
  }
  std::stable_sort(usage_.begin(), usage_.end(), [](const Usage& a, const Usage& b) {
    return std::tie(a.pod_device, a.minute) < std::tie(b.pod_device, b.minute);
  });
  // Two samples of one minute would count it twice: the first is kept.
  auto repeated = std::unique(usage_.begin(), usage_.end(), [](const Usage& a, const Usage& b) {
    return a.pod_device == b.pod_device && a.minute == b.minute;
  });
  if (repeated != usage_.end()) {
    Reject(absl::StrCat(usage_.end() - repeated, " usage samples"),
           "a second sample of the same pod, device and minute");
    usage_.erase(repeated, usage_.end());
  }
  for (size_t i = 0; i < usage_.size();) {
    size_t j = i + 1;
    while (j < usage_.size() && usage_[j].pod_device == usage_[i].pod_device) ++j;
    usage_ranges_.emplace(usage_[i].pod_device, std::make_pair(i, j));
    i = j;
  }
}

void Engine::FindOverHeldDevices(const std::vector<uint32_t>& hold_device) {
  const std::vector<HoldFact>& holds = input_.holds;
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < holds.size(); ++i) {
    if (hold_device[i] != UINT32_MAX) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return hold_device[a] < hold_device[b]; });
  std::vector<HeldInterval> held;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    held.clear();
    for (; j < order.size() && hold_device[order[j]] == hold_device[order[i]]; ++j) {
      const HoldFact& h = holds[order[j]];
      held.push_back({std::max(ToSeconds(h.from), start_), std::min(ToSeconds(h.to), end_), h.milli, order[j]});
    }
    for (const OverHeldSpan& span : FindOverHeld(held)) {
      OverHeldDevice o{holds[order[i]].cluster,
                       holds[order[i]].device_id,
                       absl::FromUnixSeconds(span.from),
                       absl::FromUnixSeconds(span.to),
                       span.milli,
                       {}};
      for (uint32_t h : span.holds) o.pod_uids.push_back(holds[h].pod_uid);
      report_.over_held.push_back(std::move(o));
    }
    i = j;
  }
}

absl::Status Engine::Run(const HourSink& sink) {
  std::vector<size_t> devices, pieces, arriving, merged;  // devices: ascending, so in work order
  size_t next_device = 0, next_piece = 0;
  for (int64_t hour = start_; hour < end_; hour += kHour) {
    const int64_t hour_end = hour + kHour;
    arriving.clear();
    for (; next_device < device_starts_.size() && devices_[device_starts_[next_device]].from < hour_end;
         ++next_device) {
      arriving.push_back(device_starts_[next_device]);
    }
    if (!arriving.empty()) {
      std::sort(arriving.begin(), arriving.end());
      merged.clear();
      std::merge(devices.begin(), devices.end(), arriving.begin(), arriving.end(), std::back_inserter(merged));
      devices.swap(merged);
    }
    for (; next_piece < pieces_.size() && pieces_[next_piece].from < hour_end; ++next_piece) {
      pieces.push_back(next_piece);
    }
    devices.erase(std::remove_if(devices.begin(), devices.end(), [&](size_t d) { return devices_[d].to <= hour; }),
                  devices.end());
    pieces.erase(std::remove_if(pieces.begin(), pieces.end(), [&](size_t p) { return pieces_[p].to <= hour; }),
                 pieces.end());
    absl::StatusOr<HourLines> lines = Hour(hour, devices, pieces);
    if (!lines.ok()) return lines.status();
    for (const ChargeLine& l : lines->lines) report_.total_cost_micro += l.total_cost_micro;
    sink(*std::move(lines));
  }
  return absl::OkStatus();
}

void Engine::Emit(ChargeLine line, uint32_t cluster, uint32_t model, uint32_t team, uint32_t ns, uint32_t workload) {
  // Kinds in name order: fixed, idle, shared, workload.
  const uint32_t kind = line.line_kind == kFixedLine    ? 0
                        : line.line_kind == kIdleLine   ? 1
                        : line.line_kind == kSharedLine ? 2
                                                        : 3;
  order_.push_back({{cluster, model, team, ns, workload, kind}, lines_.size()});
  lines_.push_back(std::move(line));
}

absl::StatusOr<HourLines> Engine::Hour(int64_t hour, const std::vector<size_t>& devices,
                                       const std::vector<size_t>& pieces) {
  const int64_t hour_end = hour + kHour;
  // Device-hours, grouped by (cluster, model, node, device): `devices` is in that order.
  std::vector<DeviceHour>& device_hours = device_hours_;
  std::vector<Segment>& segments = segments_;
  device_hours.clear();
  segments.clear();
  std::map<std::pair<uint32_t, uint32_t>, int64_t> unpriced;
  for (size_t i : devices) {
    const Device& d = devices_[i];
    const int64_t from = std::max(d.from, hour);
    const int64_t to = std::min(d.to, hour_end);
    if (from >= to) continue;
    if (device_hours.empty() || device_hours.back().key != d.key) {
      device_hours.push_back({d.key, d.cluster, d.model, d.node, segments.size(), segments.size()});
    }
    DeviceHour& dh = device_hours.back();
    int64_t t = from;
    for (const PricePeriod& p : price_timelines_[d.prices]) {
      if (p.to <= t || p.from >= to) continue;
      if (p.from > t) segments.push_back({t, p.from, 0, false});
      segments.push_back({std::max(t, p.from), std::min(to, p.to), p.micro_per_device_hour, true});
      t = std::min(to, p.to);
    }
    if (t < to) segments.push_back({t, to, 0, false});
    for (size_t s = dh.end_segment; s < segments.size(); ++s) {
      dh.capacity += Int128{segments[s].price} * 1000 * (segments[s].to - segments[s].from);
      if (!segments[s].priced) unpriced[{d.cluster, d.model}] += segments[s].to - segments[s].from;
    }
    dh.end_segment = segments.size();
  }
  for (const auto& [cm, seconds] : unpriced) {
    report_.unpriced.push_back(
        {absl::FromUnixSeconds(hour), clusters_.Name(cm.first), models_.Name(cm.second), seconds});
  }
  for (size_t i = 0; i < device_hours.size(); ++i) {
    device_slot_[device_hours[i].key] = static_cast<int32_t>(i);
    if (i > 0 && (device_hours[i].cluster != device_hours[i - 1].cluster ||
                  device_hours[i].model != device_hours[i - 1].model)) {
      device_hours[i].cell = device_hours[i - 1].cell + 1;
    } else if (i > 0) {
      device_hours[i].cell = device_hours[i - 1].cell;
    }
  }

  // What each hold is charged for, device by device.
  std::vector<Charge>& charges = charges_;
  charges.clear();
  for (size_t pi : pieces) {
    const Piece& p = pieces_[pi];
    const int32_t slot = device_slot_[p.device];
    if (slot < 0) continue;  // the device was not in service this hour
    const DeviceHour& dh = device_hours[slot];
    const int64_t from = std::max(p.from, hour);
    const int64_t to = std::min(p.to, hour_end);
    // Time with a sample is charged on the basis; time without one (no
    // telemetry, or a gap in it) is charged what was held, and flagged.
    Int128 requested = 0, sampled_requested = 0, used_weight = 0, max_weight = 0;
    int64_t held = 0, used = 0, held_seconds = 0, sampled_seconds = 0;
    for (size_t s = dh.first_segment; s < dh.end_segment; ++s) {
      const int64_t seconds = Overlap(from, to, segments[s].from, segments[s].to);
      held_seconds += seconds;
      held += p.milli * seconds;
      requested += Int128{segments[s].price} * p.milli * seconds;
    }
    if (held == 0) continue;
    auto range = usage_ranges_.find(PodDevice(p.pod, p.device));
    if (range != usage_ranges_.end()) {
      auto first = std::lower_bound(usage_.begin() + range->second.first, usage_.begin() + range->second.second,
                                    from - 59, [](const Usage& u, int64_t t) { return u.minute < t; });
      for (auto u = first; u != usage_.begin() + range->second.second && u->minute < to; ++u) {
        const int64_t m_from = std::max(from, u->minute);
        const int64_t m_to = std::min(to, u->minute + 60);
        if (m_from >= m_to) continue;
        for (size_t s = dh.first_segment; s < dh.end_segment; ++s) {
          const int64_t seconds = Overlap(m_from, m_to, segments[s].from, segments[s].to);
          const Int128 price = segments[s].price;
          sampled_seconds += seconds;
          sampled_requested += price * p.milli * seconds;
          used += u->used * seconds;
          used_weight += price * u->used * seconds;
          max_weight += price * std::max(p.milli, u->used) * seconds;
        }
      }
    }
    Int128 weight = requested;
    if (options_.basis == Basis::kUsage) weight = requested - sampled_requested + used_weight;
    if (options_.basis == Basis::kMax) weight = requested - sampled_requested + max_weight;
    const bool no_telemetry = options_.basis != Basis::kRequest && sampled_seconds < held_seconds;
    charges.push_back({static_cast<uint32_t>(slot), static_cast<uint32_t>(pi), weight, held, used,
                       static_cast<int32_t>(sampled_seconds), no_telemetry, false});
  }
  for (const DeviceHour& dh : device_hours) device_slot_[dh.key] = -1;

  // A device charged for more than it is (over-held, or used above what was
  // held under `max`) is split among its holds in proportion; no idle.
  std::sort(charges.begin(), charges.end(), [&](const Charge& a, const Charge& b) {
    const Piece& x = pieces_[a.piece];
    const Piece& y = pieces_[b.piece];
    return std::tie(device_hours[a.device_hour].cell, x.team, x.ns, x.workload, a.device_hour, a.piece) <
           std::tie(device_hours[b.device_hour].cell, y.team, y.ns, y.workload, b.device_hour, b.piece);
  });
  {
    std::vector<Int128> charged(device_hours.size(), 0);
    for (const Charge& c : charges) charged[c.device_hour] += c.weight;
    std::vector<std::pair<uint32_t, size_t>> over;  // (device-hour, charge)
    for (size_t i = 0; i < charges.size(); ++i) {
      const uint32_t d = charges[i].device_hour;
      if (charged[d] > device_hours[d].capacity) over.emplace_back(d, i);
    }
    for (size_t d = 0; d < device_hours.size(); ++d) {
      device_hours[d].idle = std::max<Int128>(0, device_hours[d].capacity - charged[d]);
    }
    std::sort(over.begin(), over.end());
    std::vector<Int128> weights, parts;
    for (size_t i = 0; i < over.size();) {
      size_t j = i;
      weights.clear();
      for (; j < over.size() && over[j].first == over[i].first; ++j) weights.push_back(charges[over[j].second].weight);
      Apportion(device_hours[over[i].first].capacity, weights, &parts);
      for (size_t k = i; k < j; ++k) {
        charges[over[k].second].weight = parts[k - i];
        charges[over[k].second].over_held = true;
      }
      i = j;
    }
  }

  order_.clear();
  lines_.clear();
  explained_.clear();
  size_t c = 0;
  for (size_t d = 0; d < device_hours.size();) {
    size_t e = d;
    while (e < device_hours.size() && device_hours[e].cell == device_hours[d].cell) ++e;
    const size_t c_begin = c;
    while (c < charges.size() && device_hours[charges[c].device_hour].cell == device_hours[d].cell) ++c;
    absl::Status cell = Cell(hour, device_hours, d, e, charges.begin() + c_begin, charges.begin() + c);
    if (!cell.ok()) return cell;
    d = e;
  }
  Fixed(hour);
  std::sort(order_.begin(), order_.end(), [](const Ordered& a, const Ordered& b) { return a.key < b.key; });
  HourLines out;
  out.hour = absl::FromUnixSeconds(hour);
  out.lines.reserve(order_.size());
  for (const Ordered& o : order_) out.lines.push_back(std::move(lines_[o.line]));
  if (explanation_ != nullptr && hour == ToSeconds(explain_request_->hour)) {
    explanation_->hour = out.hour;
    explanation_->team = explain_request_->team;
    for (const Ordered& o : order_) {
      auto it = explained_.find(o.line);
      if (it != explained_.end()) explanation_->lines.push_back(std::move(it->second));
    }
  }
  return out;
}

absl::Status Engine::Cell(int64_t hour, const std::vector<DeviceHour>& device_hours, size_t dh_begin, size_t dh_end,
                          std::vector<Charge>::const_iterator charges_begin,
                          std::vector<Charge>::const_iterator charges_end) {
  // Lines in (team, namespace, workload) order: the charges come sorted so.
  std::vector<CellLine> lines;
  struct OnNode {
    uint32_t node;
    size_t line;
    Int128 weight;
  };
  std::vector<OnNode> on_node;
  const uint32_t cluster_id = device_hours[dh_begin].cluster, model_id = device_hours[dh_begin].model;
  const bool explain = Explaining(cluster_id, model_id);
  CellRecord record;
  for (auto c = charges_begin; c != charges_end; ++c) {
    const Piece& p = pieces_[c->piece];
    if (lines.empty() || lines.back().team != p.team || lines.back().ns != p.ns ||
        lines.back().workload != p.workload) {
      lines.push_back({p.team, p.ns, p.workload, p.shared});
    }
    CellLine& l = lines.back();
    l.direct += c->weight;
    l.held += c->held;
    l.used += c->used;
    l.no_telemetry = l.no_telemetry || c->no_telemetry;
    on_node.push_back({device_hours[c->device_hour].node, lines.size() - 1, c->weight});
    if (explain) record.charge_line.push_back(lines.size() - 1);
  }
  if (explain) record.idle.resize(lines.size());
  Int128 capacity = 0;
  for (size_t d = dh_begin; d < dh_end; ++d) capacity += device_hours[d].capacity;

  // Idle, per node or over the whole (cluster, model).
  Int128 kept = 0;
  std::vector<std::pair<size_t, Int128>> takers;
  if (options_.idle_per_node) {
    std::sort(on_node.begin(), on_node.end(),
              [](const OnNode& a, const OnNode& b) { return std::tie(a.node, a.line) < std::tie(b.node, b.line); });
    size_t k = 0;
    for (size_t d = dh_begin; d < dh_end;) {
      const uint32_t node = device_hours[d].node;
      Int128 idle = 0;
      for (; d < dh_end && device_hours[d].node == node; ++d) idle += device_hours[d].idle;
      while (k < on_node.size() && on_node[k].node < node) ++k;
      takers.clear();
      for (; k < on_node.size() && on_node[k].node == node; ++k) {
        if (takers.empty() || takers.back().first != on_node[k].line) takers.emplace_back(on_node[k].line, 0);
        takers.back().second += on_node[k].weight;
      }
      Share(idle, takers, explain ? node_names_[node] : std::string(), &lines, &kept, explain ? &record : nullptr);
    }
  } else {
    Int128 idle = 0;
    for (size_t d = dh_begin; d < dh_end; ++d) idle += device_hours[d].idle;
    for (size_t i = 0; i < lines.size(); ++i) takers.emplace_back(i, lines[i].direct);
    Share(idle, takers, "", &lines, &kept, explain ? &record : nullptr);
  }
  std::vector<Int128> before_spread;  // each line's charge and idle, when explaining
  if (explain) {
    for (const CellLine& l : lines) before_spread.push_back(l.direct + l.idle);
  }
  SpreadShared(options_, &lines);

  // The fleet cost of the (cluster, model, hour), rounded once, then split
  // over the lines by their exact weights, and each line over its parts.
  Int128 weight_sum = kept;
  for (const CellLine& l : lines) weight_sum += l.direct + l.idle + l.spread;
  if (weight_sum != capacity) {
    // Every split above is exact, so this cannot happen; if it did, lines
    // that do not add up must not be written.
    return absl::InternalError(absl::StrCat("attribution of ", clusters_.Name(device_hours[dh_begin].cluster), " ",
                                            models_.Name(device_hours[dh_begin].model), " at ",
                                            absl::FormatTime(absl::FromUnixSeconds(hour), absl::UTCTimeZone()),
                                            " does not add up to its fleet cost"));
  }
  const Int128 cost = (capacity + kWeightPerMicro / 2) / kWeightPerMicro;
  std::vector<Int128> weights, totals, parts;
  for (const CellLine& l : lines) weights.push_back(l.direct + l.idle + l.spread);
  weights.push_back(kept);  // the idle line, last
  Apportion(cost, weights, &totals);

  const std::string& cluster = clusters_.Name(device_hours[dh_begin].cluster);
  const std::string& model = models_.Name(device_hours[dh_begin].model);
  for (size_t i = 0; i < lines.size(); ++i) {
    const CellLine& l = lines[i];
    Apportion(totals[i], {l.direct, l.idle, l.spread}, &parts);
    ChargeLine line;
    line.hour = absl::FromUnixSeconds(hour);
    line.cluster = cluster;
    line.team = teams_.Name(l.team);
    line.namespace_name = namespaces_.Name(l.ns);
    line.workload = workloads_.Name(l.workload);
    line.model = model;
    line.line_kind = l.shared ? kSharedLine : kWorkloadLine;
    line.held_milli_seconds = l.held;
    line.used_milli_seconds = l.used;
    line.direct_cost_micro = static_cast<int64_t>(parts[0]);
    line.idle_cost_micro = static_cast<int64_t>(parts[1]);
    line.shared_cost_micro = static_cast<int64_t>(parts[2]);
    line.total_cost_micro = static_cast<int64_t>(totals[i]);
    line.no_telemetry = l.no_telemetry;
    if (explain && explain_team_ == l.team) {
      LineExplanation& e = explained_[lines_.size()];
      e.line = line;
      ExplainHolds(hour, record, device_hours, charges_begin, i, line.direct_cost_micro, &e);
      ExplainShared(lines, before_spread, i, &e);
      e.idle = record.idle[i];
      SplitIdle(line.idle_cost_micro, &e.idle);
      e.direct_weight = l.direct;
      e.idle_weight = l.idle;
      e.shared_weight = l.spread;
      e.cell_weight = capacity;
      e.cell_cost_micro = static_cast<int64_t>(cost);
    }
    Emit(std::move(line), device_hours[dh_begin].cluster, device_hours[dh_begin].model, l.team, l.ns, l.workload);
  }
  if (kept > 0) {
    ChargeLine idle;
    idle.hour = absl::FromUnixSeconds(hour);
    idle.cluster = cluster;
    idle.team = kIdleTeam;
    idle.model = model;
    idle.line_kind = kIdleLine;
    idle.idle_cost_micro = idle.total_cost_micro = static_cast<int64_t>(totals.back());
    if (explain && explain_team_ == teams_.Id(kIdleTeam)) {
      LineExplanation& e = explained_[lines_.size()];
      e.line = idle;
      e.idle = record.kept;
      SplitIdle(idle.idle_cost_micro, &e.idle);
      e.idle_weight = kept;
      e.cell_weight = capacity;
      e.cell_cost_micro = static_cast<int64_t>(cost);
    }
    Emit(std::move(idle), device_hours[dh_begin].cluster, device_hours[dh_begin].model, teams_.Id(kIdleTeam),
         namespaces_.Id(""), workloads_.Id(""));
  }
  return absl::OkStatus();
}

bool Engine::Explaining(uint32_t cluster, uint32_t model) const {
  if (explanation_ == nullptr || !explain_team_) return false;
  return (explain_request_->cluster.empty() || clusters_.Name(cluster) == explain_request_->cluster) &&
         (explain_request_->model.empty() || models_.Name(model) == explain_request_->model);
}

void Engine::Share(Int128 idle, const std::vector<std::pair<size_t, Int128>>& takers, const std::string& node,
                   std::vector<CellLine>* lines, Int128* kept, CellRecord* record) const {
  if (record == nullptr || idle == 0) {
    ShareIdle(options_, idle, takers, lines, kept);
    return;
  }
  std::vector<Int128> before;
  for (const CellLine& l : *lines) before.push_back(l.idle);
  const Int128 kept_before = *kept;
  ShareIdle(options_, idle, takers, lines, kept);
  IdleExplanation scope;
  scope.scope = options_.idle_per_node ? "node" : "cluster";
  scope.node = node;
  scope.rule = options_.idle == IdleRule::kShare ? "share" : options_.idle == IdleRule::kEven ? "even" : "keep";
  scope.scope_idle = idle;
  for (const auto& t : takers) scope.scope_weight += t.second;
  if (*kept > kept_before) {
    IdleExplanation k = scope;
    k.received = *kept - kept_before;
    k.note = options_.idle == IdleRule::kKeep ? "kept by the rule"
             : takers.empty()                 ? "nobody held the model in the scope"
                                              : "no charge in the scope to weigh a share by";
    record->kept.push_back(std::move(k));
    return;
  }
  for (const auto& [line, weight] : takers) {
    IdleExplanation r = scope;
    r.line_weight = weight;
    r.received = (*lines)[line].idle - before[line];
    record->idle[line].push_back(std::move(r));
  }
}

void Engine::ExplainHolds(int64_t hour, const CellRecord& record, const std::vector<DeviceHour>& device_hours,
                          std::vector<Charge>::const_iterator charges_begin, size_t line, int64_t direct_micro,
                          LineExplanation* e) const {
  std::vector<Int128> weights, parts;
  for (size_t k = 0; k < record.charge_line.size(); ++k) {
    if (record.charge_line[k] != line) continue;
    const Charge& c = *(charges_begin + static_cast<std::ptrdiff_t>(k));
    const Piece& p = pieces_[c.piece];
    const DeviceHour& dh = device_hours[c.device_hour];
    const int64_t from = std::max(p.from, hour);
    const int64_t to = std::min(p.to, hour + kHour);
    HoldExplanation h;
    h.pod_uid = pod_names_[p.pod];
    h.device_id = device_names_[p.device];
    h.node = node_names_[dh.node];
    h.milli = p.milli;
    h.from = absl::FromUnixSeconds(from);
    h.to = absl::FromUnixSeconds(to);
    h.held_milli_seconds = c.held;
    h.held_seconds = c.held / p.milli;
    h.telemetry_seconds = c.sampled_seconds;
    h.used_milli_seconds = c.used;
    for (size_t s = dh.first_segment; s < dh.end_segment; ++s) {
      const int64_t seconds = Overlap(from, to, segments_[s].from, segments_[s].to);
      if (seconds > 0) h.prices.push_back({segments_[s].price, segments_[s].priced, seconds});
    }
    h.weight = c.weight;
    h.over_held = c.over_held;
    h.no_telemetry = c.no_telemetry;
    weights.push_back(c.weight);
    e->holds.push_back(std::move(h));
  }
  // The line's direct cost over its holds by the rule every split follows.
  Apportion(direct_micro, weights, &parts);
  for (size_t k = 0; k < parts.size(); ++k) e->holds[k].direct_cost_micro = static_cast<int64_t>(parts[k]);
}

void Engine::ExplainShared(const std::vector<CellLine>& lines, const std::vector<Int128>& before_spread, size_t line,
                           LineExplanation* e) const {
  Int128 pool = 0;
  bool recipients = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].shared) {
      pool += before_spread[i];
    } else {
      recipients = true;
    }
  }
  if (pool == 0 || !recipients) return;  // nothing was spread
  SharedExplanation s;
  s.spread = options_.shared_even ? "even" : "weighted";
  s.pool = pool;
  s.line_weight = before_spread[line];
  if (lines[line].shared) {
    s.given = before_spread[line];
  } else {
    s.received = lines[line].spread;
  }
  e->shared = s;
}

void Engine::Fixed(int64_t hour) {
  int64_t amount = 0;
  for (const policy::FixedCost& f : input_.options.fixed_monthly_costs) {
    amount += MonthlyCostForHour(f.micro_per_month, absl::FromUnixSeconds(hour));
  }
  if (amount == 0) return;
  // The teams charged this hour, by what they were charged.
  std::map<uint32_t, int64_t> charged;
  for (const Ordered& o : order_) {
    if (o.key[5] == 3) charged[o.key[2]] += lines_[o.line].total_cost_micro;
  }
  int64_t team_weight = 0, weight_sum = 0;  // for an explanation
  auto add = [&](uint32_t team, int64_t micro) {
    ChargeLine line;
    line.hour = absl::FromUnixSeconds(hour);
    line.team = teams_.Name(team);
    line.line_kind = kFixedLine;
    line.shared_cost_micro = line.total_cost_micro = micro;
    if (explanation_ != nullptr && explain_team_ == team && explain_request_->cluster.empty() &&
        explain_request_->model.empty()) {
      LineExplanation& e = explained_[lines_.size()];
      e.line = line;
      e.fixed = FixedExplanation{options_.shared_even ? "even" : "weighted", amount, team_weight, weight_sum};
    }
    Emit(std::move(line), clusters_.Id(""), models_.Id(""), team, namespaces_.Id(""), workloads_.Id(""));
  };
  if (charged.empty()) {
    team_weight = weight_sum = 0;
    add(teams_.Id(policy::kUnassignedTeam), amount);
    return;
  }
  std::vector<Int128> weights, parts;
  for (const auto& [team, micro] : charged) weights.push_back(options_.shared_even ? 1 : micro);
  Apportion(amount, weights, &parts);
  for (const Int128& w : weights) weight_sum += static_cast<int64_t>(w);
  size_t i = 0;
  for (const auto& [team, micro] : charged) {
    team_weight = static_cast<int64_t>(weights[i]);
    if (parts[i] > 0) add(team, static_cast<int64_t>(parts[i]));
    ++i;
  }
}

// Why an explanation does not add up to its line; "" when it does.
std::string Mismatch(const LineExplanation& e) {
  const ChargeLine& l = e.line;
  int64_t direct = 0, idle = 0;
  for (const HoldExplanation& h : e.holds) direct += h.direct_cost_micro;
  for (const IdleExplanation& s : e.idle) idle += s.idle_cost_micro;
  if (direct != l.direct_cost_micro) {
    return absl::StrCat("its holds add up to ", direct, " of its direct cost ", l.direct_cost_micro);
  }
  if (idle != l.idle_cost_micro) {
    return absl::StrCat("its idle scopes add up to ", idle, " of its idle cost ", l.idle_cost_micro);
  }
  if (l.shared_cost_micro != 0 && !(e.shared && e.shared->received > 0) && !e.fixed) {
    return absl::StrCat("it has shared cost ", l.shared_cost_micro, " and received none");
  }
  if (l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro != l.total_cost_micro) {
    return absl::StrCat("direct, idle and shared add up to ",
                        l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro, " of its total ",
                        l.total_cost_micro);
  }
  return "";
}

absl::Status CheckWindow(absl::Time start, absl::Time end) {
  auto whole_hour = [](absl::Time t) {
    return t != absl::InfinitePast() && t != absl::InfiniteFuture() && t == absl::FromUnixSeconds(ToSeconds(t)) &&
           ToSeconds(t) % kHour == 0;
  };
  if (!whole_hour(start) || !whole_hour(end) || start >= end) {
    return absl::InvalidArgumentError(absl::StrCat("window [", absl::FormatTime(start, absl::UTCTimeZone()), ", ",
                                                   absl::FormatTime(end, absl::UTCTimeZone()),
                                                   "): start and end must be whole hours, start before end"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<HourExplanation> Explain(const AttributionInput& input, const TeamSchedule& teams,
                                        const ExplainRequest& request) {
  if (!CheckWindow(request.hour, request.hour + absl::Hours(1)).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("hour ", absl::FormatTime(request.hour, absl::UTCTimeZone()), " is not a whole hour"));
  }
  absl::StatusOr<Options> options = ParseOptions(input.options);
  if (!options.ok()) return options.status();
  HourExplanation out;
  out.hour = request.hour;
  out.team = request.team;
  Engine engine(input, *options, request.hour, request.hour + absl::Hours(1));
  engine.ExplainInto(request, &out);
  engine.Prepare(teams);
  FLEETCAP_RETURN_IF_ERROR(engine.Run([](HourLines&&) {}));
  for (const LineExplanation& e : out.lines) {
    // Each split above is exact, so this cannot happen; an explanation that
    // does not add up must not be shown as one.
    const std::string mismatch = Mismatch(e);
    if (!mismatch.empty()) {
      return absl::InternalError(absl::StrCat("the explanation of ", e.line.team, "'s ", e.line.line_kind, " line of ",
                                              e.line.cluster, " ", e.line.model, " ", e.line.namespace_name, " ",
                                              e.line.workload, " does not add up: ", mismatch));
    }
  }
  return out;
}

absl::StatusOr<AttributionReport> Attribute(const AttributionInput& input, const TeamSchedule& teams,
                                            const HourSink& sink) {
  FLEETCAP_RETURN_IF_ERROR(CheckWindow(input.start, input.end));
  absl::StatusOr<Options> options = ParseOptions(input.options);
  if (!options.ok()) return options.status();
  Engine engine(input, *options, input.start, input.end);
  engine.Prepare(teams);
  FLEETCAP_RETURN_IF_ERROR(engine.Run(sink));
  return engine.TakeReport();
}

}  // namespace fleetcap::attribution
