#include "services/api/chargeback/chargeback_explain.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/attribution/attribution_engine.h"
#include "optimizer/chargeback/window_loader.h"
#include "proto_time.h"
#include "services/api/chargeback/chargeback_line.h"
#include "services/api/request_time.h"

namespace fleetcap::api {
namespace {

// Exact weights can pass int64: decimal text.
std::string Decimal(attribution::Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string out;
  while (v != 0) {
    const int digit = static_cast<int>(v % 10);
    out.push_back(static_cast<char>('0' + (negative ? -digit : digit)));
    v /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

void LineToProto(const attribution::ChargeLine& l, v1::ChargebackLine* out) {
  *out->mutable_start() = ToProtoTimestamp(l.hour);
  out->set_team(l.team);
  out->set_cluster(l.cluster);
  out->set_namespace_(l.namespace_name);
  out->set_workload(l.workload);
  out->set_model(l.model);
  out->set_line_kind(l.line_kind);
  out->set_held_milli_seconds(l.held_milli_seconds);
  out->set_used_milli_seconds(l.used_milli_seconds);
  out->set_observed_milli_seconds(l.observed_milli_seconds);
  out->set_direct_cost_micro(l.direct_cost_micro);
  out->set_idle_cost_micro(l.idle_cost_micro);
  out->set_shared_cost_micro(l.shared_cost_micro);
  out->set_total_cost_micro(l.total_cost_micro);
  out->set_efficiency(Efficiency(l.used_milli_seconds, l.observed_milli_seconds));
}

using LineKey = std::tuple<std::string, std::string, std::string, std::string, std::string>;

LineKey KeyOf(const v1::ChargebackLine& l) {
  return {l.cluster(), l.model(), l.namespace_(), l.workload(), l.line_kind()};
}

bool SameFigures(const v1::ChargebackLine& a, const store::ChargebackSum& b) {
  return a.held_milli_seconds() == b.held_milli_seconds && a.used_milli_seconds() == b.used_milli_seconds &&
         a.observed_milli_seconds() == b.observed_milli_seconds && a.direct_cost_micro() == b.direct_cost_micro &&
         a.idle_cost_micro() == b.idle_cost_micro && a.shared_cost_micro() == b.shared_cost_micro &&
         a.total_cost_micro() == b.total_cost_micro;
}

// Whether `team` can have lines in the hour: "idle", "unassigned", or a team
// of a version in force at some time of it (a version applied within the
// hour charges its teams from then on).
bool KnownDuring(const std::vector<policy::PolicyInForce>& versions, const std::string& team) {
  if (team == attribution::kIdleTeam || team == policy::kUnassignedTeam) return true;
  for (const policy::PolicyInForce& v : versions) {
    if (v.teams == nullptr) continue;
    const std::vector<policy::Team>& known = v.teams->policy().teams;
    if (std::any_of(known.begin(), known.end(), [&](const policy::Team& t) { return t.name == team; })) return true;
  }
  return false;
}

}  // namespace

ChargebackExplainQuery::ChargebackExplainQuery(const store::AttributionFactsRepository* facts, TeamAttribution* teams,
                                               const store::ChargebackReadRepository* stored)
    : facts_(facts), teams_(teams), stored_(stored) {}

absl::Status ChargebackExplainQuery::Authorize(const Scope& scope, const v1::ExplainChargebackRequest& request) const {
  if (scope.role == Role::kAdmin || scope.role == Role::kPlanner) return absl::OkStatus();
  if (scope.role == Role::kTeam && scope.Covers(request.team())) return absl::OkStatus();
  return OutOfScope("team");
}

absl::StatusOr<v1::ChargebackExplanation> ChargebackExplainQuery::Run(
    const Scope& scope, const v1::ExplainChargebackRequest& request) const {
  if (request.team().empty()) return absl::InvalidArgumentError("team: required");
  if (!request.has_hour()) return absl::InvalidArgumentError("hour: required");
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("hour", request.hour()));
  const absl::Time hour = FromProtoTimestamp(request.hour());
  if (!store::IsWholeHour(hour)) {
    return absl::InvalidArgumentError(absl::StrCat("hour: ", FormatRfc3339(hour), " is not the start of an hour"));
  }
  const int32_t up_to = PolicyVersionOf(scope);
  const chargeback::FactsSources sources(facts_, teams_->directory(), up_to);
  FLEETCAP_ASSIGN_OR_RETURN(chargeback::LoadedWindow window,
                            chargeback::LoadWindow(sources, hour, hour + absl::Hours(1)));
  const policy::PolicyTimeline& timeline = teams_->directory()->timeline();
  const policy::PolicyInForce in_force = timeline.At(hour, up_to);
  const policy::TeamResolver no_policy;
  const policy::PolicyDocument& policy = (in_force.teams ? *in_force.teams : no_policy).policy();
  if (!KnownDuring(timeline.During(hour, hour + absl::Hours(1), up_to), request.team())) {
    return absl::InvalidArgumentError(
        absl::StrCat("team: \"", request.team(), "\" is not a team of the policy in force at ", FormatRfc3339(hour)));
  }
  if (window.pieces.size() != 1) {
    return absl::InternalError(absl::StrCat("the facts of ", FormatRfc3339(hour), " loaded as ", window.pieces.size(),
                                            " pieces, not one hour"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(attribution::HourExplanation explained,
                            attribution::Explain(window.pieces[0].input, *window.teams,
                                                 {hour, request.team(), request.model(), request.cluster()}));
  v1::ChargebackExplanation out = ExplanationToProto(explained);
  out.set_currency(policy.currency);

  store::ChargebackFilter filter;
  filter.start = hour;
  filter.end = hour + absl::Hours(1);
  filter.teams = {request.team()};
  filter.cluster = request.cluster();
  filter.model = request.model();
  store::ChargebackGroupBy all{true, true, true, true, true, true};
  FLEETCAP_ASSIGN_OR_RETURN(auto stored, stored_->Lines(filter, all, store::ChargebackResolution::kHour));
  // A fixed line has no model or cluster: asked for one, it is not explained.
  if (!request.model().empty() || !request.cluster().empty()) {
    stored.erase(std::remove_if(stored.begin(), stored.end(),
                                [](const store::ChargebackSum& s) { return s.line_kind == attribution::kFixedLine; }),
                 stored.end());
  }
  CompareWithStored(stored, &out);
  return out;
}

v1::ChargebackExplanation ExplanationToProto(const attribution::HourExplanation& e) {
  v1::ChargebackExplanation out;
  *out.mutable_hour() = ToProtoTimestamp(e.hour);
  out.set_team(e.team);
  for (const attribution::LineExplanation& l : e.lines) {
    v1::LineExplanation* line = out.add_lines();
    LineToProto(l.line, line->mutable_line());
    for (const attribution::HoldExplanation& h : l.holds) {
      v1::HoldExplanation* hold = line->add_holds();
      hold->set_pod_uid(h.pod_uid);
      hold->set_device_id(h.device_id);
      hold->set_node(h.node);
      hold->set_milli(h.milli);
      *hold->mutable_from() = ToProtoTimestamp(h.from);
      *hold->mutable_to() = ToProtoTimestamp(h.to);
      hold->set_held_seconds(h.held_seconds);
      hold->set_telemetry_seconds(h.telemetry_seconds);
      hold->set_held_milli_seconds(h.held_milli_seconds);
      hold->set_used_milli_seconds(h.used_milli_seconds);
      for (const attribution::PricedSeconds& p : h.prices) {
        v1::PricedSeconds* price = hold->add_prices();
        price->set_micro_per_device_hour(p.micro_per_device_hour);
        price->set_priced(p.priced);
        price->set_seconds(p.seconds);
      }
      hold->set_weight(Decimal(h.weight));
      hold->set_over_held(h.over_held);
      hold->set_no_telemetry(h.no_telemetry);
      hold->set_direct_cost_micro(h.direct_cost_micro);
    }
    for (const attribution::IdleExplanation& i : l.idle) {
      v1::IdleExplanation* idle = line->add_idle();
      idle->set_scope(i.scope);
      idle->set_node(i.node);
      idle->set_rule(i.rule);
      idle->set_note(i.note);
      idle->set_scope_idle_weight(Decimal(i.scope_idle));
      idle->set_line_weight(Decimal(i.line_weight));
      idle->set_scope_weight(Decimal(i.scope_weight));
      idle->set_received_weight(Decimal(i.received));
      idle->set_idle_cost_micro(i.idle_cost_micro);
    }
    if (l.shared) {
      v1::SharedExplanation* s = line->mutable_shared();
      s->set_spread(l.shared->spread);
      s->set_pool_weight(Decimal(l.shared->pool));
      s->set_line_weight(Decimal(l.shared->line_weight));
      s->set_received_weight(Decimal(l.shared->received));
      s->set_given_weight(Decimal(l.shared->given));
    }
    if (l.fixed) {
      v1::FixedExplanation* f = line->mutable_fixed();
      f->set_spread(l.fixed->spread);
      f->set_hour_amount_micro(l.fixed->hour_amount_micro);
      f->set_team_weight(l.fixed->team_weight);
      f->set_weight_sum(l.fixed->weight_sum);
    }
    line->set_direct_weight(Decimal(l.direct_weight));
    line->set_idle_weight(Decimal(l.idle_weight));
    line->set_shared_weight(Decimal(l.shared_weight));
    line->set_cell_weight(Decimal(l.cell_weight));
    line->set_cell_cost_micro(l.cell_cost_micro);
  }
  return out;
}

void CompareWithStored(const std::vector<store::ChargebackSum>& stored, v1::ChargebackExplanation* explanation) {
  std::map<LineKey, const store::ChargebackSum*> by_key;
  for (const store::ChargebackSum& s : stored)
    by_key[{s.cluster, s.model, s.namespace_name, s.workload, s.line_kind}] = &s;
  bool all_match = true;
  for (v1::LineExplanation& line : *explanation->mutable_lines()) {
    auto it = by_key.find(KeyOf(line.line()));
    if (it == by_key.end()) {
      line.set_matches_stored(false);
      all_match = false;
      continue;
    }
    line.set_matches_stored(SameFigures(line.line(), *it->second));
    if (!line.matches_stored()) {
      *line.mutable_stored() = ToLine(*it->second);
      all_match = false;
    }
    by_key.erase(it);
  }
  for (const auto& [key, s] : by_key) {
    *explanation->add_stored_only() = ToLine(*s);
    all_match = false;
  }
  explanation->set_matches_stored(all_match);
  if (all_match) return;
  explanation->set_note(stored.empty() ? "not computed yet: no line of the team is stored for this hour"
                                       : "recompute pending: the stored lines were computed from other facts or "
                                         "policy than the hour has now");
}

}  // namespace fleetcap::api
