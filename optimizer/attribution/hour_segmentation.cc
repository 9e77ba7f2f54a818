#include "optimizer/attribution/hour_segmentation.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace fleetcap::attribution::internal {
namespace {

// Cuts [from, to) of a device with price timeline `prices` at every change.
void CutAtPrices(const std::vector<PricePeriod>& prices, int64_t from, int64_t to, std::vector<Segment>* segments) {
  int64_t t = from;
  for (const PricePeriod& p : prices) {
    if (p.to <= t || p.from >= to) continue;
    if (p.from > t) segments->push_back({t, p.from, 0, false});
    segments->push_back({std::max(t, p.from), std::min(to, p.to), p.micro_per_device_hour, true});
    t = std::min(to, p.to);
  }
  if (t < to) segments->push_back({t, to, 0, false});
}

// Numbers each device-hour's (cluster, model) in order, and notes its slot.
void NumberCells(HourWork* work) {
  std::vector<DeviceHour>& device_hours = work->device_hours;
  for (size_t i = 0; i < device_hours.size(); ++i) {
    work->device_slot[device_hours[i].key] = static_cast<int32_t>(i);
    if (i > 0 && (device_hours[i].cluster != device_hours[i - 1].cluster ||
                  device_hours[i].model != device_hours[i - 1].model)) {
      device_hours[i].cell = device_hours[i - 1].cell + 1;
    } else if (i > 0) {
      device_hours[i].cell = device_hours[i - 1].cell;
    }
  }
}

// What one piece is charged on its device-hour `slot` over [from, to).
// Time with a sample is charged on the basis; time without one (no
// telemetry, or a gap in it) is charged what was held, and flagged. False
// when it held nothing there.
bool ChargePiece(const InputIndex& index, const Options& options, const HourWork& work, size_t pi, int32_t slot,
                 int64_t from, int64_t to, Charge* out) {
  const Piece& p = index.pieces[pi];
  const DeviceHour& dh = work.device_hours[slot];
  const std::vector<Segment>& segments = work.segments;
  Int128 requested = 0, sampled_requested = 0, used_weight = 0, max_weight = 0;
  int64_t held = 0, used = 0, observed = 0, held_seconds = 0, sampled_seconds = 0;
  for (size_t s = dh.first_segment; s < dh.end_segment; ++s) {
    const int64_t seconds = Overlap(from, to, segments[s].from, segments[s].to);
    held_seconds += seconds;
    held += p.milli * seconds;
    requested += Int128{segments[s].price} * p.milli * seconds;
  }
  if (held == 0) return false;
  auto range = index.usage_ranges.find(PodDevice(p.pod, p.device));
  if (range != index.usage_ranges.end()) {
    const auto range_end = index.usage.begin() + range->second.second;
    auto first = std::lower_bound(index.usage.begin() + range->second.first, range_end, from - 59,
                                  [](const Usage& u, int64_t t) { return u.minute < t; });
    for (auto u = first; u != range_end && u->minute < to; ++u) {
      const int64_t m_from = std::max(from, u->minute);
      const int64_t m_to = std::min(to, u->minute + 60);
      if (m_from >= m_to) continue;
      for (size_t s = dh.first_segment; s < dh.end_segment; ++s) {
        const int64_t seconds = Overlap(m_from, m_to, segments[s].from, segments[s].to);
        const Int128 price = segments[s].price;
        sampled_seconds += seconds;
        observed += p.milli * seconds;
        sampled_requested += price * p.milli * seconds;
        used += u->used * seconds;
        used_weight += price * u->used * seconds;
        max_weight += price * std::max(p.milli, u->used) * seconds;
      }
    }
  }
  Int128 weight = requested;
  if (options.basis == Basis::kUsage) weight = requested - sampled_requested + used_weight;
  if (options.basis == Basis::kMax) weight = requested - sampled_requested + max_weight;
  const bool no_telemetry = options.basis != Basis::kRequest && sampled_seconds < held_seconds;
  *out = {static_cast<uint32_t>(slot),
          static_cast<uint32_t>(pi),
          weight,
          held,
          used,
          observed,
          static_cast<int32_t>(sampled_seconds),
          no_telemetry,
          false};
  return true;
}

// A device charged for more than it is (over-held, or used above what was
// held under `max`) is split among its holds in proportion; no idle.
void SplitOverHeld(HourWork* work) {
  std::vector<DeviceHour>& device_hours = work->device_hours;
  std::vector<Charge>& charges = work->charges;
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

}  // namespace

void SegmentHour(const InputIndex& index, int64_t hour, const std::vector<size_t>& devices, HourWork* work,
                 AttributionReport* report) {
  const int64_t hour_end = hour + kSecondsPerHour;
  std::vector<DeviceHour>& device_hours = work->device_hours;
  std::vector<Segment>& segments = work->segments;
  device_hours.clear();
  segments.clear();
  std::map<std::pair<uint32_t, uint32_t>, int64_t> unpriced;
  for (size_t i : devices) {
    const Device& d = index.devices[i];
    const int64_t from = std::max(d.from, hour);
    const int64_t to = std::min(d.to, hour_end);
    if (from >= to) continue;
    if (device_hours.empty() || device_hours.back().key != d.key) {
      device_hours.push_back({d.key, d.cluster, d.model, d.node, segments.size(), segments.size()});
    }
    DeviceHour& dh = device_hours.back();
    CutAtPrices(index.price_timelines[d.prices], from, to, &segments);
    for (size_t s = dh.end_segment; s < segments.size(); ++s) {
      dh.capacity += Int128{segments[s].price} * 1000 * (segments[s].to - segments[s].from);
      if (!segments[s].priced) unpriced[{d.cluster, d.model}] += segments[s].to - segments[s].from;
    }
    dh.end_segment = segments.size();
  }
  for (const auto& [cm, seconds] : unpriced) {
    report->unpriced.push_back(
        {absl::FromUnixSeconds(hour), index.clusters.Name(cm.first), index.models.Name(cm.second), seconds});
  }
  NumberCells(work);
}

void ChargeHour(const InputIndex& index, const Options& options, int64_t hour, const std::vector<size_t>& pieces,
                HourWork* work) {
  const int64_t hour_end = hour + kSecondsPerHour;
  std::vector<Charge>& charges = work->charges;
  charges.clear();
  for (size_t pi : pieces) {
    const Piece& p = index.pieces[pi];
    const int32_t slot = work->device_slot[p.device];
    if (slot < 0) continue;  // the device was not in service this hour
    Charge charge{};
    if (ChargePiece(index, options, *work, pi, slot, std::max(p.from, hour), std::min(p.to, hour_end), &charge)) {
      charges.push_back(charge);
    }
  }
  for (const DeviceHour& dh : work->device_hours) work->device_slot[dh.key] = -1;

  const std::vector<DeviceHour>& device_hours = work->device_hours;
  std::sort(charges.begin(), charges.end(), [&](const Charge& a, const Charge& b) {
    const Piece& x = index.pieces[a.piece];
    const Piece& y = index.pieces[b.piece];
    return std::tie(device_hours[a.device_hour].cell, x.team, x.ns, x.workload, a.device_hour, a.piece) <
           std::tie(device_hours[b.device_hour].cell, y.team, y.ns, y.workload, b.device_hour, b.piece);
  });
  SplitOverHeld(work);
}

}  // namespace fleetcap::attribution::internal
