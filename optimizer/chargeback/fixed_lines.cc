#include "optimizer/chargeback/fixed_lines.h"

#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/fixed_costs.h"
#include "policy/team_resolution.h"

namespace fleetcap::chargeback {

std::vector<store::ChargebackLineRecord> FixedLines(absl::Time hour, const policy::Attribution& options,
                                                    const std::map<std::string, int64_t>& charged) {
  int64_t amount = 0;
  for (const policy::FixedCost& f : options.fixed_monthly_costs) {
    amount += attribution::MonthlyCostForHour(f.micro_per_month, hour);
  }
  std::vector<store::ChargebackLineRecord> lines;
  if (amount == 0) return lines;
  auto add = [&](const std::string& team, int64_t micro) {
    store::ChargebackLineRecord line;
    line.hour = hour;
    line.team = team;
    line.line_kind = "fixed";
    line.shared_cost_micro = line.total_cost_micro = micro;
    lines.push_back(std::move(line));
  };
  if (charged.empty()) {
    add(policy::kUnassignedTeam, amount);
    return lines;
  }
  const bool even = options.shared_spread == "even";
  std::vector<attribution::Int128> weights, parts;
  for (const auto& [team, micro] : charged) weights.push_back(even ? 1 : micro);
  attribution::Apportion(amount, weights, &parts);
  size_t i = 0;
  for (const auto& [team, micro] : charged) {
    if (parts[i] > 0) add(team, static_cast<int64_t>(parts[i]));
    ++i;
  }
  return lines;
}

}  // namespace fleetcap::chargeback
