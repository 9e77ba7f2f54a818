#pragma once
// The solver anyone can call (`fleetcap-optimizer allocate`): a policy and a
// demand.yaml in, the recommendation set out, with no database (its JSON is
// services/exports/recommendation_set.h). The data-driven cases (tests/allocation/cases/) run through it too.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "optimizer/allocation/recommendation.h"

namespace fleetcap::allocation {

struct SolverInput {
  std::string policy_source;  // names the file in messages
  std::string policy_text;
  std::string demand_source;
  std::string demand_text;
  // Heterogeneity-aware: divide by the policy's throughput matrix
  // (heterogeneity_problem.h) instead of per flavor by water-filling.
  bool heterogeneity = false;
};

// INVALID_ARGUMENT listing every problem of either document, one a line
// ("SOURCE:LINE:COLUMN: FIELD: MESSAGE").
absl::StatusOr<std::vector<Recommendation>> SolveOffline(const SolverInput& input);

// One row per recommendation, devices as decimals, for people: the measured
// demand ("-" when nothing was measured) beside the demand the run used.
std::string RecommendationsTable(const std::vector<Recommendation>& recommendations);

}  // namespace fleetcap::allocation
