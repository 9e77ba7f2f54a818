#include "services/api/chargeback/chargeback_line.h"

#include "proto_time.h"

namespace fleetcap::api {

double Efficiency(int64_t used_milli_seconds, int64_t observed_milli_seconds) {
  return observed_milli_seconds > 0
             ? static_cast<double>(used_milli_seconds) / static_cast<double>(observed_milli_seconds)
             : 0.0;
}

v1::ChargebackLine ToLine(const store::ChargebackSum& sum) {
  v1::ChargebackLine line;
  *line.mutable_start() = ToProtoTimestamp(sum.start);
  line.set_team(sum.team);
  line.set_cluster(sum.cluster);
  line.set_namespace_(sum.namespace_name);
  line.set_workload(sum.workload);
  line.set_model(sum.model);
  line.set_line_kind(sum.line_kind);
  line.set_held_milli_seconds(sum.held_milli_seconds);
  line.set_used_milli_seconds(sum.used_milli_seconds);
  line.set_observed_milli_seconds(sum.observed_milli_seconds);
  line.set_direct_cost_micro(sum.direct_cost_micro);
  line.set_idle_cost_micro(sum.idle_cost_micro);
  line.set_shared_cost_micro(sum.shared_cost_micro);
  line.set_total_cost_micro(sum.total_cost_micro);
  line.set_efficiency(Efficiency(sum.used_milli_seconds, sum.observed_milli_seconds));
  line.set_no_telemetry(sum.no_telemetry);
  return line;
}

}  // namespace fleetcap::api
