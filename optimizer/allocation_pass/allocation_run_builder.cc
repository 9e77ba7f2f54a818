#include "optimizer/allocation_pass/allocation_run_builder.h"

#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/allocation/policy_problem.h"

namespace fleetcap::optimizer {
namespace {

using TeamFlavor = std::pair<std::string, std::string>;  // (team, flavor)

}  // namespace

absl::StatusOr<BuiltAllocationRun> BuildAllocationRun(const policy::PolicyDocument& policy,
                                                      const planning_state::DemandHistory& history,
                                                      const AllocationRunInputs& inputs) {
  BuiltAllocationRun out;
  const allocation::MeasuredDemandSet measured =
      allocation::MeasureDemand(policy, inputs.history_end, history.held, history.pending, inputs.demand);
  out.unplaced = measured.unplaced;

  allocation::DemandDocument demand;
  std::map<TeamFlavor, const allocation::MeasuredDemand*> by_key;
  for (const auto& d : measured.demand) {
    demand.demand.push_back({d.team, d.flavor, d.demand_milli, 0});
    by_key[{d.team, d.flavor}] = &d;
  }
  const allocation::PolicyProblem problem = allocation::BuildPolicyProblem(policy, demand);
  if (!problem.errors.empty()) {
    return absl::InternalError(absl::StrCat("allocation of policy version ", inputs.policy_version, ": ",
                                            policy::FormatPolicyErrors("policy", problem.errors.policy),
                                            policy::FormatPolicyErrors("measured demand", problem.errors.demand)));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto recommendations,
                            allocation::RecommendPolicyProblem(policy, problem.problem, inputs.engine));

  store::AllocationRunDraft& draft = out.draft;
  draft.computed_at = inputs.computed_at;
  draft.policy_version = inputs.policy_version;
  draft.inputs_json = inputs.inputs_json;
  for (const allocation::Recommendation& r : recommendations) {
    auto d = by_key.find({r.team, r.flavor});
    // How the demand was measured, then what bound the result.
    const std::string how = d == by_key.end() ? "no demand measured" : d->second->explanation;
    draft.recommendations.push_back({r.team, r.flavor, r.demand_milli, r.guarantee_milli, r.recommended_milli,
                                     r.borrowing_limit_milli, r.lending_limit_milli, r.bound_by,
                                     absl::StrCat(how, "; ", r.explanation)});
    if (d != by_key.end()) draft.recommendations.back().measured_demand_milli = d->second->measured_milli;
  }
  return out;
}

}  // namespace fleetcap::optimizer
