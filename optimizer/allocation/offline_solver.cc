#include "optimizer/allocation/offline_solver.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "optimizer/allocation/demand_document.h"
#include "optimizer/allocation/policy_engine.h"
#include "optimizer/allocation/policy_problem.h"
#include "policy/policy_parser.h"
#include "policy/text_rules.h"

namespace fleetcap::allocation {

absl::StatusOr<std::vector<Recommendation>> SolveOffline(const SolverInput& input) {
  const policy::ParsedPolicy policy = policy::ParsePolicy(input.policy_text);
  const ParsedDemand demand = ParseDemand(input.demand_text);
  std::string errors = policy::FormatPolicyErrors(input.policy_source, policy.errors) +
                       policy::FormatPolicyErrors(input.demand_source, demand.errors);
  if (errors.empty()) {
    const PolicyProblem problem = BuildPolicyProblem(policy.document, demand.document);
    errors = policy::FormatPolicyErrors(input.policy_source, problem.errors.policy) +
             policy::FormatPolicyErrors(input.demand_source, problem.errors.demand);
    if (errors.empty()) {
      return RecommendPolicyProblem(
          policy.document, problem.problem,
          input.heterogeneity ? AllocationEngine::kHeterogeneity : AllocationEngine::kWaterFilling);
    }
  }
  errors.pop_back();  // the last newline
  return absl::InvalidArgumentError(errors);
}

std::string RecommendationsTable(const std::vector<Recommendation>& recommendations) {
  const std::vector<std::string> header = {"TEAM",        "FLAVOR",    "MEASURED", "DEMAND",   "GUARANTEE",
                                           "RECOMMENDED", "BORROWING", "LENDING",  "BOUND BY", "WHY"};
  std::vector<std::vector<std::string>> rows = {header};
  for (const Recommendation& r : recommendations) {
    auto devices = [](int64_t milli) { return policy::FormatDecimal(milli, 3); };
    rows.push_back({r.team, r.flavor, r.measured_demand_milli ? devices(*r.measured_demand_milli) : "-",
                    devices(r.demand_milli), devices(r.guarantee_milli), devices(r.recommended_milli),
                    r.borrowing_limit_milli ? devices(*r.borrowing_limit_milli) : "-", devices(r.lending_limit_milli),
                    r.bound_by, r.explanation});
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      // Quantities right-aligned, text left-aligned; the last column unpadded.
      const bool number = c >= 2 && c <= 7;
      const std::string pad(width[c] - row[c].size(), ' ');
      if (c > 0) line += "  ";
      line += number ? pad + row[c] : (c + 1 == row.size() ? row[c] : row[c] + pad);
    }
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

}  // namespace fleetcap::allocation
