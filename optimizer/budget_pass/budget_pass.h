#pragma once
// The budgets of the month holding now, after each chargeback pass: what the
// optimizer exports as the fleetcap_budget_* gauges (docs/insights.md,
// "Budgets"), worked out as the API's GetBudgets does (budget_states.h), from
// the active policy and the chargeback through the fleet's watermark. Reads
// only through the store's chargeback reader, the policy timeline and a
// Clock, so it is unit-tested on the memory ones.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "optimizer/budget_pass/budget_states.h"
#include "policy/policy_timeline.h"
#include "store/chargeback_repository.h"

namespace fleetcap::budgets {

struct BudgetPassReport {
  std::string currency;
  std::vector<BudgetState> budgets;  // by team; none without a policy or a budget this month
};

class BudgetPass {
 public:
  // All must outlive the pass.
  BudgetPass(const store::ChargebackReadRepository* lines, policy::PolicyTimeline* policies, const Clock* clock)
      : lines_(lines), policies_(policies), clock_(clock) {}

  // `watermark`: the fleet's, after the pass (nullopt before the first).
  absl::StatusOr<BudgetPassReport> Run(std::optional<absl::Time> watermark);

 private:
  const store::ChargebackReadRepository* lines_;
  policy::PolicyTimeline* policies_;
  const Clock* clock_;
};

}  // namespace fleetcap::budgets
