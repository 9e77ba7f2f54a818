#include "optimizer/insights/spend_change.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/insights/exact_sum.h"

namespace fleetcap::insights {

bool SpendContribution::operator==(const SpendContribution& o) const {
  return std::tie(team, namespace_name, workload, model, change_micro) ==
         std::tie(o.team, o.namespace_name, o.workload, o.model, o.change_micro);
}

bool SpendDriver::operator==(const SpendDriver& o) const {
  return std::tie(name, change_micro, top) == std::tie(o.name, o.change_micro, o.top);
}

bool SpendChange::operator==(const SpendChange& o) const {
  return std::tie(previous_cost_micro, current_cost_micro, change_micro, drivers) ==
         std::tie(o.previous_cost_micro, o.current_cost_micro, o.change_micro, o.drivers);
}

namespace {

enum Driver : size_t { kStarted, kEnded, kHeldTime, kModelMix, kPrice, kIdleShare, kSharedAndFixed };

using WorkloadKey = std::tuple<std::string, std::string, std::string>;  // team, namespace, workload
using CellKey = std::pair<std::string, std::string>;                    // model, cluster
using ContributionKey = std::tuple<std::string, std::string, std::string, std::string>;

// A workload's lines of one window.
struct WorkloadSide {
  struct Cell {
    Integer held, direct;
  };
  std::map<CellKey, Cell> cells;
  // Per model: the idle and shared cost received, and the whole cost.
  std::map<std::string, Integer> idle, shared, total;
  bool present = false;  // a line with time or money
};

struct Window {
  std::map<WorkloadKey, WorkloadSide> workloads;
  Integer total;
};

// What each (team, namespace, workload, model) added to each driver,
// exactly (Integer and Exact: no sum of int64 figures can wrap); a driver is
// the sum of its contributions.
struct Drivers {
  std::array<std::map<ContributionKey, Exact>, kSpendDriverCount> by_key;

  void Add(Driver d, const WorkloadKey& w, const std::string& model, const Exact& amount) {
    if (amount == 0) return;
    by_key[d][{std::get<0>(w), std::get<1>(w), std::get<2>(w), model}] += amount;
  }

  std::vector<Exact> Terms(size_t d) const {
    std::vector<Exact> terms;
    for (const auto& [key, amount] : by_key[d]) terms.push_back(amount);
    return terms;
  }
};

bool KnownKind(const std::string& kind) {
  return kind == "workload" || kind == "idle" || kind == "shared" || kind == "fixed";
}

absl::Status CheckLine(const char* window, size_t index, const SpendLine& l) {
  const auto where = [&] {
    return absl::StrCat(window, " line ", index, " (", l.team, "/", l.namespace_name, "/", l.workload, " ", l.model,
                        " ", l.cluster, " ", l.line_kind.substr(0, 64), "): ");
  };
  if (!KnownKind(l.line_kind)) {
    return absl::InvalidArgumentError(where() + "line_kind is not one of workload, idle, shared, fixed");
  }
  if (l.held_milli_seconds < 0) return absl::InvalidArgumentError(where() + "held_milli_seconds is negative");
  if (Integer(l.direct_cost_micro) + l.idle_cost_micro + l.shared_cost_micro != Integer(l.total_cost_micro)) {
    return absl::InvalidArgumentError(where() + "direct, idle and shared cost do not add up to the total");
  }
  return absl::OkStatus();
}

// Indexes one window's workload lines, and adds its `idle`, `shared` and
// `fixed` lines (times `sign`: -1 for the previous window) to their drivers.
absl::StatusOr<Window> IndexWindow(const char* name, const std::vector<SpendLine>& lines, int sign, Drivers* drivers) {
  Window window;
  for (size_t i = 0; i < lines.size(); ++i) {
    const SpendLine& l = lines[i];
    FLEETCAP_RETURN_IF_ERROR(CheckLine(name, i, l));
    window.total += l.total_cost_micro;
    const WorkloadKey key{l.team, l.namespace_name, l.workload};
    if (l.line_kind != "workload") {
      drivers->Add(l.line_kind == "idle" ? kIdleShare : kSharedAndFixed, key, l.model,
                   Exact(Integer(l.total_cost_micro) * sign));
      continue;
    }
    WorkloadSide& side = window.workloads[key];
    WorkloadSide::Cell& cell = side.cells[{l.model, l.cluster}];
    cell.held += l.held_milli_seconds;
    cell.direct += l.direct_cost_micro;
    side.idle[l.model] += l.idle_cost_micro;
    side.shared[l.model] += l.shared_cost_micro;
    side.total[l.model] += l.total_cost_micro;
    side.present = side.present || l.held_milli_seconds != 0 || l.direct_cost_micro != 0 || l.idle_cost_micro != 0 ||
                   l.shared_cost_micro != 0;
  }
  return window;
}

// The Shapley value of each factor of x * y * z going from `from` to `to`:
// each factor's change times the others' products averaged over the six
// orders of changing the three, d(x) [(y0 z0 + y1 z1)/3 + (y0 z1 + y1 z0)/6]
// = d(x) [(2 y0 + y1) z0 + (y0 + 2 y1) z1] / 6. They add up to the
// product's change.
std::array<Exact, 3> ShapleyOfProduct(const std::array<Exact, 3>& from, const std::array<Exact, 3>& to) {
  std::array<Exact, 3> phi;
  for (size_t i = 0; i < 3; ++i) {
    const size_t j = (i + 1) % 3, k = (i + 2) % 3;
    phi[i] = (to[i] - from[i]) * ((2 * from[j] + to[j]) * from[k] + (from[j] + 2 * to[j]) * to[k]) / 6;
  }
  return phi;
}

Integer HeldTotal(const WorkloadSide& side) {
  Integer held;
  for (const auto& [cell_key, cell] : side.cells) held += cell.held;
  return held;
}

// A workload's direct cost is the sum over its cells (model, cluster) of
// held x share x price: H * (h / H) * (d / h). Each cell's change is split
// between the three by ShapleyOfProduct. A cell without time in a window
// takes its price from the other window (no price change), and a workload
// without time its shares (no mix change); money without time is `price`.
void SplitDirect(const WorkloadKey& key, const WorkloadSide& before, const WorkloadSide& after, Drivers* drivers) {
  const Integer held_before = HeldTotal(before), held_after = HeldTotal(after);
  std::set<CellKey> cells;
  for (const auto& [cell_key, cell] : before.cells) cells.insert(cell_key);
  for (const auto& [cell_key, cell] : after.cells) cells.insert(cell_key);
  const WorkloadSide::Cell none;
  for (const CellKey& cell_key : cells) {
    const auto find = [&](const WorkloadSide& side) -> const WorkloadSide::Cell& {
      auto it = side.cells.find(cell_key);
      return it == side.cells.end() ? none : it->second;
    };
    const WorkloadSide::Cell &b = find(before), &a = find(after);
    const std::string& model = cell_key.first;
    if (b.held == 0) drivers->Add(kPrice, key, model, Exact(-b.direct));
    if (a.held == 0) drivers->Add(kPrice, key, model, Exact(a.direct));
    if (b.held == 0 && a.held == 0) continue;
    const Exact price_before = b.held > 0 ? Ratio(b.direct, b.held) : Ratio(a.direct, a.held);
    const Exact price_after = a.held > 0 ? Ratio(a.direct, a.held) : price_before;
    const Exact share_before = held_before > 0 ? Ratio(b.held, held_before) : Ratio(a.held, held_after);
    const Exact share_after = held_after > 0 ? Ratio(a.held, held_after) : share_before;
    const std::array<Exact, 3> phi = ShapleyOfProduct({Exact(held_before), share_before, price_before},
                                                      {Exact(held_after), share_after, price_after});
    drivers->Add(kHeldTime, key, model, phi[0]);
    drivers->Add(kModelMix, key, model, phi[1]);
    drivers->Add(kPrice, key, model, phi[2]);
  }
}

// Adds `by_model` times `sign` to driver `d`.
void AddPerModel(Driver d, const WorkloadKey& key, const std::map<std::string, Integer>& by_model, int sign,
                 Drivers* drivers) {
  for (const auto& [model, amount] : by_model) drivers->Add(d, key, model, Exact(amount * sign));
}

void ExplainWorkloads(const Window& before, const Window& after, Drivers* drivers) {
  static const WorkloadSide kAbsent;
  std::set<WorkloadKey> keys;
  for (const auto& [key, side] : before.workloads) keys.insert(key);
  for (const auto& [key, side] : after.workloads) keys.insert(key);
  for (const WorkloadKey& key : keys) {
    const auto find = [&](const Window& w) -> const WorkloadSide& {
      auto it = w.workloads.find(key);
      return it == w.workloads.end() ? kAbsent : it->second;
    };
    const WorkloadSide &b = find(before), &a = find(after);
    if (!b.present && !a.present) continue;
    if (!b.present) {
      AddPerModel(kStarted, key, a.total, +1, drivers);
    } else if (!a.present) {
      AddPerModel(kEnded, key, b.total, -1, drivers);
    } else {
      SplitDirect(key, b, a, drivers);
      AddPerModel(kIdleShare, key, b.idle, -1, drivers);
      AddPerModel(kIdleShare, key, a.idle, +1, drivers);
      AddPerModel(kSharedAndFixed, key, b.shared, -1, drivers);
      AddPerModel(kSharedAndFixed, key, a.shared, +1, drivers);
    }
  }
}

// Each driver rounded once, by largest remainder, so that they add up to
// `change`; ties on the side where the change (or, with none, the first of
// the direct cost's drivers not zero: the others are whole micro-units) is
// positive, so that swapping the windows negates every driver.
std::vector<Integer> RoundDrivers(const Drivers& drivers, const Integer& change) {
  std::vector<std::vector<Exact>> sums;
  for (size_t d = 0; d < kSpendDriverCount; ++d) sums.push_back(drivers.Terms(d));
  int orientation = sgn(change);
  for (size_t d = kHeldTime; d <= kPrice && orientation == 0; ++d) orientation = SignOfSum(sums[d]);
  return RoundLargestRemainder(sums, change, orientation == 0 ? 1 : orientation);
}

absl::StatusOr<int64_t> ToInt64(const Integer& v, const char* what) {
  if (!v.fits_slong_p()) return absl::OutOfRangeError(absl::StrCat(what, " passes int64"));
  return static_cast<int64_t>(v.get_si());
}

absl::StatusOr<std::vector<SpendContribution>> Top(const std::map<ContributionKey, Exact>& by_key, int top) {
  // Sizes computed once; by size, then by key (by_key's order).
  std::vector<std::pair<Exact, const ContributionKey*>> all;
  for (const auto& [key, amount] : by_key) all.emplace_back(abs(amount), &key);
  const size_t n = std::min(all.size(), static_cast<size_t>(top));
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                    [](const auto& x, const auto& y) {
                      const int c = cmp(x.first, y.first);
                      return c != 0 ? c > 0 : *x.second < *y.second;
                    });
  std::vector<SpendContribution> out;
  for (size_t i = 0; i < n; ++i) {
    const ContributionKey& key = *all[i].second;
    const Integer micro = Nearest(by_key.at(key));
    if (micro == 0) break;  // the rest are smaller still
    FLEETCAP_ASSIGN_OR_RETURN(const int64_t change, ToInt64(micro, "a contribution"));
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), change});
  }
  return out;
}

}  // namespace

absl::StatusOr<SpendChange> ExplainSpendChange(const std::vector<SpendLine>& previous,
                                               const std::vector<SpendLine>& current, int top) {
  if (top < 0) return absl::InvalidArgumentError(absl::StrCat("top: ", top, " is negative"));
  Drivers drivers;
  FLEETCAP_ASSIGN_OR_RETURN(const Window before, IndexWindow("previous", previous, -1, &drivers));
  FLEETCAP_ASSIGN_OR_RETURN(const Window after, IndexWindow("current", current, +1, &drivers));
  ExplainWorkloads(before, after, &drivers);

  SpendChange out;
  FLEETCAP_ASSIGN_OR_RETURN(out.previous_cost_micro, ToInt64(before.total, "the previous window's cost"));
  FLEETCAP_ASSIGN_OR_RETURN(out.current_cost_micro, ToInt64(after.total, "the current window's cost"));
  const Integer change = after.total - before.total;
  FLEETCAP_ASSIGN_OR_RETURN(out.change_micro, ToInt64(change, "the change"));
  const std::vector<Integer> rounded = RoundDrivers(drivers, change);
  for (size_t d = 0; d < kSpendDriverCount; ++d) {
    SpendDriver driver{kSpendDrivers[d], 0, {}};
    FLEETCAP_ASSIGN_OR_RETURN(driver.change_micro, ToInt64(rounded[d], kSpendDrivers[d]));
    FLEETCAP_ASSIGN_OR_RETURN(driver.top, Top(drivers.by_key[d], top));
    out.drivers.push_back(std::move(driver));
  }
  return out;
}

}  // namespace fleetcap::insights
