// The allocation engine side by side with linear programs, in one run
// (docs/benchmarks.md):
// 1. the water-filling engine (Allocate) on a seeded 4-level org tree with
//    --teams leaf teams and --flavors flavors, against GLPK solving the same
//    hierarchical max-min as linear programs (at each node, maximise t with
//    every unfixed child's amount >= w t, fix the children that cannot
//    exceed w t*, repeat): the time of each, the speedup, and the largest
//    difference of the unrounded shares;
// 2. the heterogeneity-aware LP (Clp) for --lp-teams teams x --flavors
//    flavors, against GLPK maximising the same first-pass objective.
//
//   allocation_bench [--teams N] [--flavors N] [--lp-teams N] [--seed N] [--repeat N] [--engine-only 1]
//
// `--engine-only 1` runs the water-filling engine alone (--repeat times), for
// a profiler (perf stat, perf record) to see nothing else.
//
// Times are CPU time of the process (the machine is shared: wall time counts
// other programs' turns), with wall time beside them.

#include <glpk.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "optimizer/allocation/allocation_engine.h"
#include "optimizer/allocation/heterogeneity_lp.h"
#include "optimizer/allocation/org_tree.h"
#include "optimizer/allocation/recommendation.h"

namespace fleetcap::allocation {
namespace {

struct Settings {
  int64_t teams = 10'000;
  int64_t flavors = 16;
  int64_t lp_teams = 1'000;
  int64_t seed = 1;
  int64_t repeat = 5;
  int64_t engine_only = 0;
};

bool Parse(int argc, char** argv, Settings* s) {
  for (int i = 1; i + 1 < argc; i += 2) {
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--teams") == 0) target = &s->teams;
    if (std::strcmp(argv[i], "--flavors") == 0) target = &s->flavors;
    if (std::strcmp(argv[i], "--lp-teams") == 0) target = &s->lp_teams;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->seed;
    if (std::strcmp(argv[i], "--repeat") == 0) target = &s->repeat;
    if (std::strcmp(argv[i], "--engine-only") == 0) target = &s->engine_only;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1 || *target > 1'000'000) {
      std::fprintf(stderr, "allocation_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1;
}

// A 4-level tree (orgs, groups, teams, projects) whose leaves number
// `leaves`: each level has about the fourth root of it children.
AllocationProblem RandomProblem(int64_t leaves, int64_t flavors, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const int64_t fan = std::max<int64_t>(1, std::llround(std::pow(static_cast<double>(leaves), 0.25)));
  AllocationProblem p;
  std::vector<std::string> level = {""};
  std::vector<std::string> leaf_names;
  for (int depth = 0; depth < 4; ++depth) {
    std::vector<std::string> next;
    for (const std::string& parent : level) {
      for (int64_t c = 0; c < fan; ++c) {
        if (depth == 3 && static_cast<int64_t>(leaf_names.size()) >= leaves) break;
        const std::string name = parent.empty() ? absl::StrCat("o", c) : absl::StrCat(parent, ".", c);
        p.tree.push_back({name, parent, uniform(1, 5)});
        next.push_back(name);
        if (depth == 3) leaf_names.push_back(name);
      }
    }
    level = std::move(next);
  }
  // Leaves past fan^4 hang under the last projects' parents, one more each.
  for (size_t i = 0; static_cast<int64_t>(leaf_names.size()) < leaves; ++i) {
    const std::string& sibling = leaf_names[i];
    const std::string name = absl::StrCat(sibling.substr(0, sibling.rfind('.')), ".x", i);
    p.tree.push_back({name, sibling.substr(0, sibling.rfind('.')), uniform(1, 5)});
    leaf_names.push_back(name);
  }
  for (int64_t f = 0; f < flavors; ++f) {
    FlavorDemand fd;
    fd.flavor = absl::StrCat("flavor", f);
    int64_t demand_sum = 0, guarantee_sum = 0;
    for (const std::string& leaf : leaf_names) {
      TeamDemand t;
      t.team = leaf;
      t.demand_milli = uniform(0, 4) == 0 ? 0 : uniform(1, 20'000);
      t.guarantee_milli = uniform(0, 9) < 6 ? uniform(0, 8'000) : 0;
      if (uniform(0, 9) < 3) t.borrowing_limit_milli = uniform(0, 5'000);
      if (uniform(0, 9) < 3) t.lending_limit_milli = uniform(0, t.guarantee_milli);
      t.weight = uniform(1, 5);
      demand_sum += t.demand_milli;
      guarantee_sum += t.guarantee_milli;
      fd.teams.push_back(t);
    }
    // Scarce: between the guarantees and 60% of the demand, so the pool is shared.
    fd.capacity_milli = std::max(guarantee_sum, demand_sum * 6 / 10);
    p.flavors.push_back(std::move(fd));
  }
  return p;
}

// GLPK's hierarchical max-min: each node's children are the variables (a
// subtree's leaves can always take what reaches it up to their caps, so a
// child is its subtree's total, 0..its cap).
class GlpkHierarchy {
 public:
  GlpkHierarchy(const OrgTree& tree, const std::vector<int64_t>& leaf_caps, const std::vector<int64_t>& weights)
      : tree_(tree), weights_(weights), cap_(tree.nodes().size(), 0) {
    const auto& order = tree.top_down();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const int n = *it;
      if (tree.IsLeaf(n) && n != 0) cap_[n] = static_cast<double>(leaf_caps[n]);
      if (n != 0) cap_[tree.nodes()[n].parent] += cap_[n];
    }
  }

  std::vector<double> Solve(double amount) {
    // Built by push_back: gcc -O2 cannot see that a vector sized by nodes().size() is not empty, and warns.
    std::vector<double> got;
    got.reserve(tree_.nodes().size());
    got.push_back(amount);
    got.resize(tree_.nodes().size(), 0.0);
    for (int n : tree_.top_down()) {
      const auto& children = tree_.nodes()[n].children;
      if (children.empty()) continue;
      std::vector<double> split = Split(got[n], children);
      for (size_t i = 0; i < children.size(); ++i) got[children[i]] = split[i];
    }
    return got;
  }

  int64_t lps() const { return lps_; }

 private:
  static constexpr double kSlack = 1e-9;

  std::vector<double> Split(double amount, const std::vector<int>& children) {
    const size_t k = children.size();
    std::vector<double> fixed(k, -1);
    size_t fixed_count = 0;
    while (fixed_count < k) {
      const double t = Optimise(amount, children, fixed, -1, 0);
      size_t newly = 0;
      for (size_t c = 0; c < k; ++c) {
        if (fixed[c] >= 0) continue;
        const double w = static_cast<double>(weights_[children[c]]);
        if (Optimise(amount, children, fixed, static_cast<int>(c), t) <= w * t + 100 * kSlack) {
          fixed[c] = std::min(w * t, cap_[children[c]]);
          ++newly;
        }
      }
      fixed_count += newly;
      if (newly == 0) break;
    }
    return fixed;
  }

  // Maximises t (target < 0) or, with t fixed, X_target.
  double Optimise(double amount, const std::vector<int>& children, const std::vector<double>& fixed, int target,
                  double t) {
    ++lps_;
    const int k = static_cast<int>(children.size());
    glp_prob* lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_cols(lp, k + 1);
    for (int c = 0; c < k; ++c) {
      const double cap = cap_[children[c]];
      const double lo = fixed[c] >= 0 ? std::max(0.0, fixed[c] - kSlack) : 0;
      glp_set_col_bnds(lp, c + 1, cap > lo ? GLP_DB : GLP_FX, lo, std::max(cap, lo));
      if (c == target) glp_set_obj_coef(lp, c + 1, 1);
    }
    if (target < 0) {
      glp_set_col_bnds(lp, k + 1, GLP_LO, 0, 0);
      glp_set_obj_coef(lp, k + 1, 1);
    } else {
      glp_set_col_bnds(lp, k + 1, GLP_FX, t - kSlack, t - kSlack);
    }
    std::vector<int> ia = {0}, ja = {0};
    std::vector<double> ar = {0};
    glp_add_rows(lp, 1 + k);
    glp_set_row_bnds(lp, 1, GLP_UP, 0, amount + kSlack);
    for (int c = 0; c < k; ++c) {
      ia.push_back(1), ja.push_back(c + 1), ar.push_back(1);
      // X_c - w_c t >= 0 for the unfixed; free for the fixed (their bound holds them).
      if (fixed[c] < 0) {
        ia.push_back(2 + c), ja.push_back(c + 1), ar.push_back(1);
        ia.push_back(2 + c), ja.push_back(k + 1), ar.push_back(-static_cast<double>(weights_[children[c]]));
        glp_set_row_bnds(lp, 2 + c, GLP_LO, 0, 0);
      } else {
        glp_set_row_bnds(lp, 2 + c, GLP_FR, 0, 0);
      }
    }
    glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.tol_bnd = 1e-10;
    parm.tol_dj = 1e-10;
    glp_simplex(lp, &parm);
    const double value = glp_get_status(lp) == GLP_OPT ? glp_get_obj_val(lp) : -1;
    glp_delete_prob(lp);
    return value;
  }

  const OrgTree& tree_;
  const std::vector<int64_t>& weights_;
  std::vector<double> cap_;
  int64_t lps_ = 0;
};

// CPU and wall time of a stretch of work, in milliseconds.
class Stopwatch {
 public:
  Stopwatch() : wall_(absl::Now()), cpu_(CpuMillis()) {}
  double cpu() const { return CpuMillis() - cpu_; }
  double wall() const { return absl::ToDoubleMilliseconds(absl::Now() - wall_); }

 private:
  static double CpuMillis() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
  }
  absl::Time wall_;
  double cpu_;
};

int WaterFillingAgainstGlpk(const Settings& s) {
  const AllocationProblem problem = RandomProblem(s.teams, s.flavors, static_cast<uint64_t>(s.seed));
  absl::StatusOr<std::vector<FlavorAllocation>> result;
  // The first call of a fresh process (one production pass is one call)
  // apart from the best of --repeat: the first calls touch memory the
  // process never had, and its page faults are most of their time.
  double first = 0, first_wall = 0;
  double best = 1e300, best_wall = 1e300;
  for (int64_t r = 0; r < s.repeat; ++r) {
    const Stopwatch watch;
    result = Allocate(problem);
    if (r == 0) first = watch.cpu(), first_wall = watch.wall();
    best = std::min(best, watch.cpu());
    best_wall = std::min(best_wall, watch.wall());
  }
  if (!result.ok()) {
    std::fprintf(stderr, "allocation_bench: %s\n", std::string(result.status().message()).c_str());
    return 1;
  }
  if (s.engine_only != 0) {
    std::printf(
        "water-filling engine alone: %lld leaf teams x %lld flavors, first call: %.1f ms CPU, %.1f ms wall; best of "
        "%lld: %.1f ms CPU, %.1f ms wall\n",
        static_cast<long long>(s.teams), static_cast<long long>(s.flavors), first, first_wall,
        static_cast<long long>(s.repeat), best, best_wall);
    return 0;
  }
  absl::StatusOr<OrgTree> tree = OrgTree::Build(problem.tree);
  if (!tree.ok()) return 1;
  const Stopwatch glpk_watch;
  double max_diff = 0;
  int64_t lps = 0;
  for (const FlavorAllocation& fa : *result) {
    // The same inputs the engine's step 2 divides: caps e - f (or the floors
    // when over-subscribed), weights, and the pool.
    const size_t nodes = tree->nodes().size();
    std::vector<int64_t> caps(nodes, 0), weights(nodes, 1);
    for (size_t n = 1; n < nodes; ++n) weights[n] = tree->nodes()[n].weight;
    std::vector<int> node_of;
    for (const TeamAllocation& t : fa.teams) {
      const int n = *tree->Find(t.input.team);
      node_of.push_back(n);
      weights[n] = t.input.weight;
      caps[n] = fa.oversubscribed ? t.floor_milli : t.effective_demand_milli - t.floor_milli;
    }
    GlpkHierarchy glpk(*tree, caps, weights);
    const std::vector<double> got =
        glpk.Solve(static_cast<double>(fa.oversubscribed ? fa.capacity_milli : fa.pool_milli));
    lps += glpk.lps();
    for (size_t i = 0; i < fa.teams.size(); ++i) {
      const TeamAllocation& t = fa.teams[i];
      const long double share = fa.oversubscribed ? t.exact_milli : t.exact_milli - t.floor_milli;
      max_diff = std::max(max_diff, std::fabs(static_cast<double>(share) - got[node_of[i]]));
    }
  }
  const double glpk_ms = glpk_watch.cpu(), glpk_wall = glpk_watch.wall();
  // Writing the recommendations with their explanation lines comes after the
  // solve, and is timed on its own.
  const Stopwatch text_watch;
  const size_t recommendations = Recommendations(*result).size();
  const double text_ms = text_watch.cpu();
  std::printf("water-filling: %lld leaf teams (%zu nodes, 4 levels) x %lld flavors\n", static_cast<long long>(s.teams),
              problem.tree.size(), static_cast<long long>(s.flavors));
  std::printf("  %-28s %12s %12s\n", "", "engine", "GLPK");
  std::printf("  %-28s %12.1f %12.1f\n", "CPU time (ms), best", best, glpk_ms);
  std::printf("  %-28s %12.1f %12.1f\n", "wall time (ms), best", best_wall, glpk_wall);
  std::printf("  %-28s %12.1f %12s\n", "CPU time (ms), first call", first, "-");
  std::printf("  %-28s %12.1f %12s\n", "wall time (ms), first call", first_wall, "-");
  std::printf("  %-28s %12s %12lld\n", "linear programs solved", "-", static_cast<long long>(lps));
  std::printf("  then %zu recommendations with their explanation lines: %.1f ms CPU\n", recommendations, text_ms);
  std::printf("  speedup %.0fx, largest difference of the unrounded shares %.3g milli-devices\n", glpk_ms / best,
              max_diff);
  std::printf("  targets: under 50 ms %s (first call %s), at least 100x %s, within 1e-6 %s\n",
              best < 50 ? "met" : "MISSED", first < 50 ? "met" : "MISSED", glpk_ms >= 100 * best ? "met" : "MISSED",
              max_diff <= 1e-6 ? "met" : "MISSED");
  return max_diff <= 1e-6 ? 0 : 1;
}

// A throughput matrix with Gavel's spread: per class a base speed and a
// per-flavor factor from 0.5 to 12.
HeterogeneityProblem RandomHeterogeneity(int64_t teams, int64_t flavors, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> factor(0.5, 12.0), base(1.0, 100.0);
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  HeterogeneityProblem p;
  for (int64_t f = 0; f < flavors; ++f) p.flavors.push_back({absl::StrCat("flavor", f), uniform(50, 500) * 1000});
  for (int c = 0; c < 26; ++c) {
    std::vector<double> row;
    const double b = base(rng);
    for (int64_t f = 0; f < flavors; ++f) row.push_back(b * factor(rng));
    p.throughput[absl::StrCat("class", c)] = row;
  }
  for (int64_t j = 0; j < teams; ++j) {
    p.teams.push_back(
        {absl::StrCat("team", j), absl::StrCat("class", uniform(0, 25)), uniform(1, 5), uniform(1, 40) * 1000, {}, {}});
  }
  return p;
}

// GLPK on the first pass of the same LP (docs/allocation.md).
double GlpkFirstPass(const HeterogeneityProblem& p) {
  const size_t nf = p.flavors.size(), n = p.teams.size();
  glp_prob* lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MAX);
  const int cols = static_cast<int>(n * nf) + 1;
  glp_add_cols(lp, cols);
  glp_set_col_bnds(lp, cols, GLP_LO, 0, 0);
  glp_set_obj_coef(lp, cols, 1);
  glp_add_rows(lp, static_cast<int>(nf + 2 * n));
  std::vector<int> ia = {0}, ja = {0};
  std::vector<double> ar = {0};
  for (size_t f = 0; f < nf; ++f) {
    glp_set_row_bnds(lp, static_cast<int>(f) + 1, GLP_UP, 0, p.flavors[f].capacity_milli / 1000.0);
  }
  for (size_t j = 0; j < n; ++j) {
    const HeterogeneityTeam& t = p.teams[j];
    const std::vector<double>& row = p.throughput.at(t.workload_class);
    const double equal = EqualShareThroughput(row, p.flavors, n, t.demand_milli);
    const int demand_row = static_cast<int>(nf + j) + 1, fair_row = static_cast<int>(nf + n + j) + 1;
    glp_set_row_bnds(lp, demand_row, GLP_UP, 0, t.demand_milli / 1000.0);
    glp_set_row_bnds(lp, fair_row, GLP_LO, 0, 0);
    for (size_t f = 0; f < nf; ++f) {
      const int col = static_cast<int>(j * nf + f) + 1;
      glp_set_col_bnds(lp, col, GLP_DB, 0, t.demand_milli / 1000.0);
      ia.push_back(static_cast<int>(f) + 1), ja.push_back(col), ar.push_back(1);
      ia.push_back(demand_row), ja.push_back(col), ar.push_back(1);
      ia.push_back(fair_row), ja.push_back(col), ar.push_back(row[f] / equal / static_cast<double>(t.weight));
    }
    ia.push_back(fair_row), ja.push_back(cols), ar.push_back(-1);
  }
  glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  glp_simplex(lp, &parm);
  const double t = glp_get_status(lp) == GLP_OPT ? glp_get_obj_val(lp) : -1;
  glp_delete_prob(lp);
  return t;
}

int HeterogeneityLp(const Settings& s) {
  const HeterogeneityProblem p = RandomHeterogeneity(s.lp_teams, s.flavors, static_cast<uint64_t>(s.seed));
  const Stopwatch clp_watch;
  absl::StatusOr<HeterogeneityAllocation> r = AllocateHeterogeneous(p);
  const double clp_ms = clp_watch.cpu(), clp_wall = clp_watch.wall();
  if (!r.ok()) {
    std::fprintf(stderr, "allocation_bench: %s\n", std::string(r.status().message()).c_str());
    return 1;
  }
  const Stopwatch glpk_watch;
  const double glpk_t = GlpkFirstPass(p);
  const double glpk_ms = glpk_watch.cpu(), glpk_wall = glpk_watch.wall();
  std::printf("heterogeneity LP: %lld teams x %lld flavors, 26 workload classes\n", static_cast<long long>(s.lp_teams),
              static_cast<long long>(s.flavors));
  std::printf("  %-28s %12s %12s\n", "", "Clp, 2 LPs", "GLPK, 1st");
  std::printf("  %-28s %12.1f %12.1f\n", "CPU time (ms)", clp_ms, glpk_ms);
  std::printf("  %-28s %12.1f %12.1f\n", "wall time (ms)", clp_wall, glpk_wall);
  std::printf("  %-28s %12.6f %12.6f\n", "t* (min normalised / w)", r->min_weighted_normalised_throughput, glpk_t);
  const bool same = std::fabs(r->min_weighted_normalised_throughput - glpk_t) <= 1e-6;
  std::printf("  targets: under 1 s %s, t* within 1e-6 of GLPK's %s\n", clp_ms < 1000 ? "met" : "MISSED",
              same ? "met" : "MISSED");
  return same ? 0 : 1;
}

int Main(int argc, char** argv) {
  Settings s;
  if (!Parse(argc, argv, &s)) {
    std::fprintf(stderr,
                 "usage: allocation_bench [--teams N] [--flavors N] [--lp-teams N] [--seed N] [--repeat N] "
                 "[--engine-only 1]\n");
    return 2;
  }
  const int a = WaterFillingAgainstGlpk(s);
  if (s.engine_only != 0) return a;
  const int b = HeterogeneityLp(s);
  return a != 0 ? a : b;
}

}  // namespace
}  // namespace fleetcap::allocation

int main(int argc, char** argv) { return fleetcap::allocation::Main(argc, argv); }
