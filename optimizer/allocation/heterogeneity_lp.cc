#include "optimizer/allocation/heterogeneity_lp.h"

#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"
#include "optimizer/allocation/allocation_problem.h"
#include "optimizer/allocation/rounding.h"

namespace fleetcap::allocation {
namespace {

// The LP works in devices (milli-devices / 1000) so that its coefficients
// stay near 1 for Clp's tolerances.
constexpr double kPerDevice = 1000.0;
// Clp's primal and dual tolerances: far below a milli-device at the sizes
// the engine accepts, and below the 1e-6 the objective is checked to.
constexpr double kLpTolerance = 1e-9;
// The second pass keeps every team at t* less this (relative) much, so that
// the last bits of t* cannot make it infeasible.
constexpr double kSecondPassSlack = 1e-9;

absl::Status Invalid(const std::string& where, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

absl::Status CheckProblem(const HeterogeneityProblem& p) {
  const size_t nf = p.flavors.size();
  if (nf > kMaxHeterogeneityFlavors) {
    return Invalid("heterogeneity", absl::StrCat(nf, " flavors, expected at most ", kMaxHeterogeneityFlavors));
  }
  if (p.teams.size() > kMaxHeterogeneityTeams) {
    return Invalid("heterogeneity", absl::StrCat(p.teams.size(), " teams, expected at most ", kMaxHeterogeneityTeams));
  }
  std::set<std::string> flavor_names;
  for (const auto& f : p.flavors) {
    if (!flavor_names.insert(f.name).second) return Invalid(absl::StrCat("flavor ", f.name), "appears twice");
    if (!MilliInRange(f.capacity_milli)) {
      return Invalid(absl::StrCat("flavor ", f.name),
                     absl::StrCat("capacity ", f.capacity_milli, " milli-devices is out of range (expected 0 to ",
                                  kMaxMilli, ")"));
    }
  }
  for (const auto& [name, row] : p.throughput) {
    const std::string where = absl::StrCat("throughput of workload class ", name);
    if (row.size() != nf) {
      return Invalid(where, absl::StrCat(row.size(), " values, expected one per flavor (", nf, ")"));
    }
    for (size_t f = 0; f < nf; ++f) {
      if (!(row[f] >= 0 && row[f] <= kMaxThroughput)) {  // also refuses NaN
        return Invalid(absl::StrCat(where, ", flavor ", p.flavors[f].name),
                       absl::StrCat(row[f], " is out of range (expected 0 to ", kMaxThroughput, ")"));
      }
    }
  }
  std::set<std::string> team_names;
  std::vector<int64_t> floors(nf, 0);
  for (const auto& t : p.teams) {
    const std::string where = absl::StrCat("team ", t.team);
    if (!team_names.insert(t.team).second) return Invalid(where, "appears twice");
    if (p.throughput.count(t.workload_class) == 0) {
      return Invalid(where, absl::StrCat("unknown workload class \"", t.workload_class,
                                         "\" (expected a class of the throughput matrix)"));
    }
    if (t.weight < 1 || t.weight > kMaxWeight) {
      return Invalid(where, absl::StrCat("weight ", t.weight, " is out of range (expected 1 to ", kMaxWeight, ")"));
    }
    if (!MilliInRange(t.demand_milli)) {
      return Invalid(where, absl::StrCat("demand ", t.demand_milli, " milli-devices is out of range (expected 0 to ",
                                         kMaxMilli, ")"));
    }
    if ((!t.floor_milli.empty() && t.floor_milli.size() != nf) ||
        (!t.limit_milli.empty() && t.limit_milli.size() != nf)) {
      return Invalid(where, absl::StrCat("floors and limits need one value per flavor (", nf, ")"));
    }
    int64_t floor_sum = 0;
    for (size_t f = 0; f < nf; ++f) {
      const int64_t lo = t.floor_milli.empty() ? 0 : t.floor_milli[f];
      // A plain value and a flag rather than an optional copy: gcc -O2 takes
      // the copy's value for uninitialised and warns.
      const bool has_hi = !t.limit_milli.empty() && t.limit_milli[f].has_value();
      const int64_t hi = has_hi ? *t.limit_milli[f] : 0;
      const std::string at = absl::StrCat(where, ", flavor ", p.flavors[f].name);
      if (!MilliInRange(lo)) return Invalid(at, absl::StrCat("floor ", lo, " milli-devices is out of range"));
      if (has_hi && !MilliInRange(hi)) return Invalid(at, absl::StrCat("limit ", hi, " milli-devices is out of range"));
      if (has_hi && lo > hi) return Invalid(at, absl::StrCat("floor ", lo, " is above its limit ", hi));
      floor_sum += lo;
      floors[f] += lo;
    }
    if (floor_sum > t.demand_milli) {
      return Invalid(where, absl::StrCat("floors sum to ", floor_sum, ", above its demand ", t.demand_milli));
    }
  }
  for (size_t f = 0; f < nf; ++f) {
    if (floors[f] > p.flavors[f].capacity_milli) {
      return Invalid(absl::StrCat("flavor ", p.flavors[f].name),
                     absl::StrCat("floors sum to ", floors[f], " milli-devices, above the capacity ",
                                  p.flavors[f].capacity_milli));
    }
  }
  return absl::OkStatus();
}

// The LP of docs/allocation.md over the teams that take part (demand > 0 and
// some throughput on a flavor with capacity): columns y[j][f] (devices of
// flavor f for team j, j in name order) then t; rows: capacity per flavor,
// demand per team, fairness per team (sum_f a_jf y_jf - t >= 0).
class HeterogeneityLp {
 public:
  // `reserved`: per flavor, the floors of the teams that take no part.
  HeterogeneityLp(const HeterogeneityProblem& p, const std::vector<size_t>& teams, const std::vector<double>& equal,
                  const std::vector<int64_t>& reserved)
      : nf_(p.flavors.size()), n_(teams.size()), t_col_(static_cast<int>(n_ * nf_)) {
    const int cols = t_col_ + 1;
    const int rows = static_cast<int>(nf_ + 2 * n_);
    std::vector<double> col_lo(cols, 0), col_hi(cols, 0), row_lo(rows), row_hi(rows);
    objective_t_.assign(cols, 0.0);
    objective_sum_.assign(cols, 0.0);
    objective_t_[t_col_] = 1;
    col_hi[t_col_] = COIN_DBL_MAX;
    std::vector<int> row_index, col_index;
    std::vector<double> value;
    for (size_t f = 0; f < nf_; ++f) {
      row_lo[f] = -COIN_DBL_MAX;
      row_hi[f] = static_cast<double>(p.flavors[f].capacity_milli - reserved[f]) / kPerDevice;
    }
    for (size_t j = 0; j < n_; ++j) {
      const HeterogeneityTeam& t = p.teams[teams[j]];
      const std::vector<double>& row = p.throughput.at(t.workload_class);
      const int demand_row = static_cast<int>(nf_ + j), fair_row = static_cast<int>(nf_ + n_ + j);
      row_lo[demand_row] = -COIN_DBL_MAX;
      row_hi[demand_row] = static_cast<double>(t.demand_milli) / kPerDevice;
      row_lo[fair_row] = 0;
      row_hi[fair_row] = COIN_DBL_MAX;
      for (size_t f = 0; f < nf_; ++f) {
        const int col = Col(j, f);
        int64_t hi = t.demand_milli;
        if (!t.limit_milli.empty() && t.limit_milli[f]) hi = std::min(hi, *t.limit_milli[f]);
        hi = std::min(hi, p.flavors[f].capacity_milli);
        col_lo[col] = t.floor_milli.empty() ? 0 : static_cast<double>(t.floor_milli[f]) / kPerDevice;
        col_hi[col] = static_cast<double>(hi) / kPerDevice;
        Add(row_index, col_index, value, static_cast<int>(f), col, 1.0);
        Add(row_index, col_index, value, demand_row, col, 1.0);
        // Normalised throughput per device: T / E_j; weighted: / w_j.
        const double per_device = row[f] / equal[j];
        if (per_device > 0) {
          Add(row_index, col_index, value, fair_row, col, per_device / static_cast<double>(t.weight));
          objective_sum_[col] = per_device;
        }
      }
      Add(row_index, col_index, value, fair_row, t_col_, -1.0);
    }
    CoinPackedMatrix matrix(true, row_index.data(), col_index.data(), value.data(),
                            static_cast<CoinBigIndex>(value.size()));
    model_.setLogLevel(0);
    model_.loadProblem(matrix, col_lo.data(), col_hi.data(), objective_t_.data(), row_lo.data(), row_hi.data());
    model_.setOptimizationDirection(-1);  // maximise
    model_.setPrimalTolerance(kLpTolerance);
    model_.setDualTolerance(kLpTolerance);
  }

  // First pass: the largest t; nullopt when Clp finds no optimum.
  std::optional<double> MaximiseMinimum() {
    model_.dual();
    if (!model_.isProvenOptimal()) return std::nullopt;
    return model_.getColSolution()[t_col_];
  }

  // Second pass, from the first's basis: with every team kept at t*, the
  // largest sum of normalised throughputs: what is left goes where it helps most.
  bool MaximiseTotal(double t_star) {
    const double keep = std::max(0.0, t_star * (1 - kSecondPassSlack));
    model_.setColumnBounds(t_col_, keep, keep);
    for (int c = 0; c <= t_col_; ++c) model_.setObjectiveCoefficient(c, objective_sum_[c]);
    model_.primal();
    return model_.isProvenOptimal();
  }

  double Devices(size_t j, size_t f) const { return model_.getColSolution()[Col(j, f)]; }

 private:
  int Col(size_t j, size_t f) const { return static_cast<int>(j * nf_ + f); }
  static void Add(std::vector<int>& r, std::vector<int>& c, std::vector<double>& v, int row, int col, double x) {
    r.push_back(row);
    c.push_back(col);
    v.push_back(x);
  }

  size_t nf_, n_;
  int t_col_;
  std::vector<double> objective_t_, objective_sum_;
  ClpSimplex model_;
};

// Per flavor, whole milli-devices that sum to what the LP handed out (an
// integer within the capacity), each within its floor and limit.
void RoundHeterogeneousShares(const HeterogeneityProblem& p, const std::vector<size_t>& by_name,
                              HeterogeneityAllocation& out) {
  const size_t nf = p.flavors.size();
  for (size_t f = 0; f < nf; ++f) {
    std::vector<RoundingClaim> claims(by_name.size());
    long double handed = 0;
    int64_t floors = 0;
    for (size_t k = 0; k < by_name.size(); ++k) {
      const HeterogeneityShare& s = out.teams[by_name[k]];
      int64_t hi = std::min(s.input.demand_milli, p.flavors[f].capacity_milli);
      if (!s.input.limit_milli.empty() && s.input.limit_milli[f]) hi = std::min(hi, *s.input.limit_milli[f]);
      const int64_t lo = s.input.floor_milli.empty() ? 0 : s.input.floor_milli[f];
      claims[k] = {std::clamp(s.exact_milli[f], static_cast<long double>(lo), static_cast<long double>(hi)), lo, hi,
                   &s.input.team};
      handed += claims[k].exact;
      floors += lo;
    }
    const int64_t total = std::clamp<int64_t>(std::llround(handed), floors, p.flavors[f].capacity_milli);
    const std::vector<int64_t> rounded = RoundToTotal(claims, total);
    for (size_t k = 0; k < by_name.size(); ++k) out.teams[by_name[k]].recommended_milli[f] = rounded[k];
  }
}

}  // namespace

double EqualShareThroughput(const std::vector<double>& row, const std::vector<HeterogeneityFlavor>& flavors,
                            size_t teams, int64_t demand_milli) {
  if (teams == 0 || demand_milli <= 0) return 0;
  const double n = static_cast<double>(teams);
  double devices = 0, throughput = 0;
  for (size_t f = 0; f < flavors.size(); ++f) {
    const double share = static_cast<double>(flavors[f].capacity_milli) / kPerDevice / n;
    devices += share;
    throughput += row[f] * share;
  }
  if (devices <= 0) return 0;
  return throughput * std::min(1.0, static_cast<double>(demand_milli) / kPerDevice / devices);
}

absl::StatusOr<HeterogeneityAllocation> AllocateHeterogeneous(const HeterogeneityProblem& p) {
  if (absl::Status s = CheckProblem(p); !s.ok()) return s;
  const size_t nf = p.flavors.size();
  HeterogeneityAllocation out;
  out.flavors = p.flavors;
  // Teams in name order, so that the LP, and so its solution, does not
  // depend on the order of the input.
  std::vector<size_t> by_name(p.teams.size());
  std::iota(by_name.begin(), by_name.end(), 0);
  std::sort(by_name.begin(), by_name.end(), [&](size_t a, size_t b) { return p.teams[a].team < p.teams[b].team; });
  size_t wanting = 0;
  for (const auto& t : p.teams) wanting += t.demand_milli > 0 ? 1 : 0;
  out.teams.resize(p.teams.size());
  std::vector<size_t> lp_teams;
  std::vector<double> equal;
  std::vector<int64_t> reserved(nf, 0);
  for (size_t i : by_name) {
    HeterogeneityShare& s = out.teams[i];
    s.input = p.teams[i];
    s.exact_milli.assign(nf, 0.0L);
    s.recommended_milli.assign(nf, 0);
    s.equal_share_throughput =
        EqualShareThroughput(p.throughput.at(s.input.workload_class), p.flavors, wanting, s.input.demand_milli);
    if (s.equal_share_throughput > 0) {
      lp_teams.push_back(i);
      equal.push_back(s.equal_share_throughput);
    } else {
      // It runs nowhere there is capacity: only its floors, which are
      // within capacity (CheckProblem).
      for (size_t f = 0; f < nf; ++f) {
        if (s.input.floor_milli.empty()) continue;
        s.exact_milli[f] = static_cast<long double>(s.input.floor_milli[f]);
        reserved[f] += s.input.floor_milli[f];
      }
    }
  }
  if (!lp_teams.empty()) {
    HeterogeneityLp lp(p, lp_teams, equal, reserved);
    std::optional<double> t_star = lp.MaximiseMinimum();
    if (!t_star) return absl::InternalError("heterogeneity LP: Clp found no optimum of the first pass");
    out.min_weighted_normalised_throughput = *t_star;
    if (!lp.MaximiseTotal(*t_star)) {
      return absl::InternalError("heterogeneity LP: Clp found no optimum of the second pass");
    }
    for (size_t j = 0; j < lp_teams.size(); ++j) {
      HeterogeneityShare& s = out.teams[lp_teams[j]];
      for (size_t f = 0; f < nf; ++f) {
        // Clp's values are within kLpTolerance of the bounds: clamp to them.
        const long double lo = s.input.floor_milli.empty() ? 0 : s.input.floor_milli[f];
        const long double milli = static_cast<long double>(lp.Devices(j, f)) * kPerDevice;
        s.exact_milli[f] = std::max(lo, milli);
      }
    }
  }
  RoundHeterogeneousShares(p, by_name, out);
  for (HeterogeneityShare& s : out.teams) {
    const std::vector<double>& row = p.throughput.at(s.input.workload_class);
    double throughput = 0;
    for (size_t f = 0; f < nf; ++f) {
      throughput += row[f] * static_cast<double>(s.exact_milli[f]) / kPerDevice;
      s.recommended_total_milli += s.recommended_milli[f];
    }
    s.normalised_throughput = s.equal_share_throughput > 0 ? throughput / s.equal_share_throughput : 0;
  }
  return out;
}

}  // namespace fleetcap::allocation
