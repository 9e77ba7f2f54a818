#include "services/api/planning/scenario_proto.h"

#include "proto_time.h"

namespace fleetcap::api {
namespace {

void SideToProto(const whatif::ScenarioSide& side, v1::ScenarioSide* out) {
  out->set_policy_version(side.policy_version);
  for (const auto& r : side.recommendations) {
    v1::Recommendation* p = out->add_recommendations();
    p->set_team(r.team);
    p->set_flavor(r.flavor);
    p->set_demand_milli(r.demand_milli);
    p->set_guarantee_milli(r.guarantee_milli);
    p->set_recommended_milli(r.recommended_milli);
    if (r.borrowing_limit_milli) p->set_borrowing_limit_milli(*r.borrowing_limit_milli);
    p->set_lending_limit_milli(r.lending_limit_milli);
    p->set_bound_by(r.bound_by);
    p->set_explanation(r.explanation);
  }
  for (const auto& b : side.bills) {
    v1::TeamBill* p = out->add_bills();
    p->set_team(b.team);
    p->set_micro(b.micro);
    p->set_held_milli_hours(b.held_milli_hours);
    for (const std::string& flavor : b.unknown_flavors) p->add_unknown_flavors(flavor);
  }
  out->set_idle_micro(side.idle_micro);
  out->set_total_micro(side.total_micro);
  for (const auto& f : side.flavors) {
    v1::FlavorOutlook* p = out->add_flavors();
    p->set_flavor(f.flavor);
    p->set_capacity_milli(f.capacity_milli);
    p->set_held_milli_hours(f.held_milli_hours);
    p->set_capacity_milli_hours(f.capacity_milli_hours);
    p->set_utilisation_ppm(f.utilisation_ppm);
    if (f.exhausted_p50) *p->mutable_exhausted_p50() = ToProtoTimestamp(*f.exhausted_p50);
    if (f.exhausted_p90) *p->mutable_exhausted_p90() = ToProtoTimestamp(*f.exhausted_p90);
    p->set_model(f.model);
    p->set_held_unknown(f.held_unknown);
  }
  for (const auto& [model, n] : side.projection_models) (*out->mutable_projection_models())[model] = n;
  out->set_forecast_run_id(side.forecast_run_id);
}

}  // namespace

v1::ScenarioComparison ScenarioComparisonToProto(const whatif::ScenarioComparison& c, absl::Time history_end) {
  v1::ScenarioComparison out;
  *out.mutable_recommendations_at() = ToProtoTimestamp(c.recommendations_at);
  *out.mutable_month_start() = ToProtoTimestamp(c.month_start);
  *out.mutable_month_end() = ToProtoTimestamp(c.month_end);
  *out.mutable_horizon_end() = ToProtoTimestamp(c.horizon_end);
  *out.mutable_history_end() = ToProtoTimestamp(history_end);
  out.set_currency(c.currency);
  SideToProto(c.baseline, out.mutable_baseline());
  SideToProto(c.scenario, out.mutable_scenario());
  return out;
}

}  // namespace fleetcap::api
