#include "optimizer/attribution/cell_split.h"

namespace fleetcap::attribution {

void ShareIdle(const Options& options, Int128 idle, const std::vector<std::pair<size_t, Int128>>& takers,
               std::vector<CellLine>* lines, Int128* kept) {
  if (idle == 0) return;
  Int128 weight_sum = 0;
  for (const auto& t : takers) weight_sum += t.second;
  // Kept, or nobody in scope to take it, or nothing to weigh a share by.
  if (options.idle == IdleRule::kKeep || takers.empty() || (options.idle == IdleRule::kShare && weight_sum == 0)) {
    *kept += idle;
    return;
  }
  std::vector<Int128> weights, parts;
  if (options.idle == IdleRule::kShare) {
    for (const auto& t : takers) weights.push_back(t.second);
    Apportion(idle, weights, &parts);
    for (size_t i = 0; i < takers.size(); ++i) (*lines)[takers[i].first].idle += parts[i];
    return;
  }
  // Even: the same to every team, then within a team by its lines' charges.
  std::vector<size_t> team_starts;
  for (size_t i = 0; i < takers.size(); ++i) {
    if (i == 0 || (*lines)[takers[i].first].team != (*lines)[takers[i - 1].first].team) team_starts.push_back(i);
  }
  team_starts.push_back(takers.size());
  std::vector<Int128> per_team;
  ApportionEvenly(idle, team_starts.size() - 1, &per_team);
  for (size_t t = 0; t + 1 < team_starts.size(); ++t) {
    weights.clear();
    for (size_t i = team_starts[t]; i < team_starts[t + 1]; ++i) weights.push_back(takers[i].second);
    Apportion(per_team[t], weights, &parts);
    for (size_t i = team_starts[t]; i < team_starts[t + 1]; ++i) {
      (*lines)[takers[i].first].idle += parts[i - team_starts[t]];
    }
  }
}

void SpreadShared(const Options& options, std::vector<CellLine>* lines) {
  Int128 pool = 0;
  std::vector<size_t> recipients;
  for (size_t i = 0; i < lines->size(); ++i) {
    const CellLine& l = (*lines)[i];
    if (l.shared) {
      pool += l.direct + l.idle;
    } else {
      recipients.push_back(i);
    }
  }
  // With nobody to spread to, a shared namespace keeps its own cost.
  if (pool == 0 || recipients.empty()) return;
  for (CellLine& l : *lines) {
    if (l.shared) l.direct = l.idle = 0;
  }
  std::vector<Int128> weights, parts;
  if (!options.shared_even) {
    for (size_t i : recipients) weights.push_back((*lines)[i].direct + (*lines)[i].idle);
    Apportion(pool, weights, &parts);
    for (size_t k = 0; k < recipients.size(); ++k) (*lines)[recipients[k]].spread += parts[k];
    return;
  }
  std::vector<size_t> team_starts;
  for (size_t k = 0; k < recipients.size(); ++k) {
    if (k == 0 || (*lines)[recipients[k]].team != (*lines)[recipients[k - 1]].team) team_starts.push_back(k);
  }
  team_starts.push_back(recipients.size());
  std::vector<Int128> per_team;
  ApportionEvenly(pool, team_starts.size() - 1, &per_team);
  for (size_t t = 0; t + 1 < team_starts.size(); ++t) {
    weights.clear();
    for (size_t k = team_starts[t]; k < team_starts[t + 1]; ++k) {
      weights.push_back((*lines)[recipients[k]].direct + (*lines)[recipients[k]].idle);
    }
    Apportion(per_team[t], weights, &parts);
    for (size_t k = team_starts[t]; k < team_starts[t + 1]; ++k) {
      (*lines)[recipients[k]].spread += parts[k - team_starts[t]];
    }
  }
}

}  // namespace fleetcap::attribution
