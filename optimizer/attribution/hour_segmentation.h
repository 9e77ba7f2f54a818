#pragma once
// The attribution engine's work on one hour (attribution_engine.h): each
// device's time in service cut where its price changes, what each hold is
// charged for on its device by the policy's basis, and a device charged past
// itself split among its holds in proportion. Internal to the engine.

#include <cstdint>
#include <vector>

#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_lines.h"
#include "optimizer/attribution/attribution_options.h"
#include "optimizer/attribution/input_index.h"

namespace fleetcap::attribution::internal {

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
  uint32_t cell = 0;  // the (cluster, model) it is in, numbered in the hour
};

// One hold's part of one device-hour.
struct Charge {
  uint32_t device_hour;
  uint32_t piece;
  Int128 weight;
  int64_t held, used;
  int64_t observed;         // held time with a usage reading
  int32_t sampled_seconds;  // seconds with a usage reading
  bool no_telemetry;
  bool over_held;  // its weight is its proportional part of a device charged past itself
};

// The hour's work, kept between hours to reuse its memory.
struct HourWork {
  std::vector<Segment> segments;
  std::vector<DeviceHour> device_hours;  // grouped by (cluster, model, node, device)
  std::vector<Charge> charges;           // by (cell, team, namespace, workload, device-hour, piece)
  std::vector<int32_t> device_slot;      // device key -> index into device_hours, -1 if none
};

// The device-hours and price segments of `devices` (indices into the
// index's devices, ascending) in the hour starting at `hour`; the unpriced
// time of each (cluster, model) goes into `report`.
void SegmentHour(const InputIndex& index, int64_t hour, const std::vector<size_t>& devices, HourWork* work,
                 AttributionReport* report);

// The charges of `pieces` (indices into the index's pieces) on the hour's
// device-hours, sorted into cells and lines, with the idle of each
// device-hour and over-held devices split.
void ChargeHour(const InputIndex& index, const Options& options, int64_t hour, const std::vector<size_t>& pieces,
                HourWork* work);

}  // namespace fleetcap::attribution::internal
