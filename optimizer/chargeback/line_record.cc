#include "optimizer/chargeback/line_record.h"

#include <utility>

namespace fleetcap::chargeback {

store::ChargebackLineRecord RecordOf(attribution::ChargeLine line) {
  store::ChargebackLineRecord r;
  r.hour = line.hour;
  r.cluster = std::move(line.cluster);
  r.team = std::move(line.team);
  r.namespace_name = std::move(line.namespace_name);
  r.workload = std::move(line.workload);
  r.model = std::move(line.model);
  r.line_kind = std::move(line.line_kind);
  r.held_milli_seconds = line.held_milli_seconds;
  r.used_milli_seconds = line.used_milli_seconds;
  r.observed_milli_seconds = line.observed_milli_seconds;
  r.direct_cost_micro = line.direct_cost_micro;
  r.idle_cost_micro = line.idle_cost_micro;
  r.shared_cost_micro = line.shared_cost_micro;
  r.total_cost_micro = line.total_cost_micro;
  r.no_telemetry = line.no_telemetry;
  return r;
}

store::DeviceHourRecord RecordOf(absl::Time hour, attribution::DeviceHourUse device) {
  store::DeviceHourRecord r;
  r.hour = hour;
  r.cluster = std::move(device.cluster);
  r.model = std::move(device.model);
  r.node = std::move(device.node);
  r.device_id = std::move(device.device_id);
  r.held_milli_seconds = device.held_milli_seconds;
  r.used_milli_seconds = device.used_milli_seconds;
  r.observed_milli_seconds = device.observed_milli_seconds;
  return r;
}

}  // namespace fleetcap::chargeback
