// The heterogeneity-aware LP (Clp): a case worked by hand, its refusals, its
// independence from input order, and on Gavel's 300 V100 : 300 P100 : 300 K80
// cluster with its 26 job types, its objective against an independent GLPK
// solve of the same LP and its gain over the heterogeneity-agnostic division.

#include "optimizer/allocation/heterogeneity_lp.h"

#include <glpk.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "optimizer/allocation/water_filling.h"
#include "tests/support/build_paths.h"

namespace fleetcap::allocation {
namespace {

using ::testing::HasSubstr;

HeterogeneityProblem FastAndSlow() {
  HeterogeneityProblem p;
  p.flavors = {{"fast", 1000}, {"slow", 1000}};
  p.throughput = {{"sensitive", {4, 1}}, {"indifferent", {1, 1}}};
  p.teams = {{"a", "sensitive", 1, 1000, {}, {}}, {"b", "indifferent", 1, 1000, {}, {}}};
  return p;
}

// Both teams want one device. On an equal share (half of each) a makes
// 0.5*4 + 0.5*1 = 2.5, b makes 1. Whatever a takes of the fast device it
// leaves b the same number of devices, so b stays at 1 and t* = 1; the second
// pass then gives a the whole fast device (4 / 2.5 = 1.6) and b the slow one.
TEST(HeterogeneityLp, EachTeamGetsTheFlavorItIsFastestOnRelativeToTheOther) {
  absl::StatusOr<HeterogeneityAllocation> r = AllocateHeterogeneous(FastAndSlow());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NEAR(r->min_weighted_normalised_throughput, 1.0, 1e-9);
  EXPECT_THAT(r->teams[0].recommended_milli, ::testing::ElementsAre(1000, 0));
  EXPECT_THAT(r->teams[1].recommended_milli, ::testing::ElementsAre(0, 1000));
  EXPECT_NEAR(r->teams[0].equal_share_throughput, 2.5, 1e-12);
  EXPECT_NEAR(r->teams[0].normalised_throughput, 1.6, 1e-9);
  EXPECT_NEAR(r->teams[1].normalised_throughput, 1.0, 1e-9);
}

// A floor holds even where the LP would rather not: b keeps 0.4 of the fast device.
TEST(HeterogeneityLp, FloorsAndLimitsBoundEachFlavor) {
  HeterogeneityProblem p = FastAndSlow();
  p.teams[1].floor_milli = {400, 0};
  p.teams[0].limit_milli = {std::nullopt, 100};
  absl::StatusOr<HeterogeneityAllocation> r = AllocateHeterogeneous(p);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GE(r->teams[1].recommended_milli[0], 400);
  EXPECT_LE(r->teams[0].recommended_milli[1], 100);
  EXPECT_LE(r->teams[0].recommended_milli[0] + r->teams[1].recommended_milli[0], 1000);
}

TEST(HeterogeneityLp, RefusesBadInputNamingIt) {
  HeterogeneityProblem p = FastAndSlow();
  p.teams[0].workload_class = "nope";
  EXPECT_THAT(std::string(AllocateHeterogeneous(p).status().message()),
              HasSubstr("team a: unknown workload class \"nope\""));
  p = FastAndSlow();
  p.throughput["sensitive"] = {4};
  EXPECT_THAT(std::string(AllocateHeterogeneous(p).status().message()),
              HasSubstr("throughput of workload class sensitive: 1 values, expected one per flavor (2)"));
  p = FastAndSlow();
  p.throughput["sensitive"][1] = std::nan("");
  EXPECT_THAT(std::string(AllocateHeterogeneous(p).status().message()),
              HasSubstr("throughput of workload class sensitive, flavor slow"));
  p = FastAndSlow();
  p.teams[0].floor_milli = {800, 0};
  p.teams[1].floor_milli = {300, 0};
  EXPECT_THAT(std::string(AllocateHeterogeneous(p).status().message()),
              HasSubstr("flavor fast: floors sum to 1100 milli-devices, above the capacity 1000"));
  p = FastAndSlow();
  p.teams[1].team = "a";
  EXPECT_THAT(std::string(AllocateHeterogeneous(p).status().message()), HasSubstr("team a: appears twice"));
  p = FastAndSlow();
  p.teams[0].weight = 0;
  EXPECT_THAT(std::string(AllocateHeterogeneous(p).status().message()), HasSubstr("team a: weight 0"));
}

// Gavel's throughputs (steps/s of each job type alone, scale factor 1) on
// its heterogeneous cluster.
struct Gavel {
  HeterogeneityProblem problem;
  std::vector<std::string> job_types;
};

Gavel LoadGavel(int64_t devices_each_team) {
  Gavel g;
  std::ifstream in(fleetcap::testing::SharedDataPath("gavel/simulation_throughputs.json"));
  EXPECT_TRUE(in.good()) << "cannot read " << fleetcap::testing::SharedDataPath("gavel/simulation_throughputs.json");
  const nlohmann::json throughputs = nlohmann::json::parse(in);
  std::ifstream spec_in(fleetcap::testing::SharedDataPath("gavel/cluster_specs_heterogeneous.json"));
  const nlohmann::json spec = nlohmann::json::parse(spec_in);
  // "300:300:300" is V100 : P100 : K80.
  int v100 = 0, p100 = 0, k80 = 0;
  EXPECT_EQ(std::sscanf(spec.at("philly").at(0).get<std::string>().c_str(), "%d:%d:%d", &v100, &p100, &k80), 3);
  g.problem.flavors = {{"v100", v100 * 1000}, {"p100", p100 * 1000}, {"k80", k80 * 1000}};
  for (const auto& [key, value] : throughputs.at("v100").items()) {
    if (key.size() < 4 || key.substr(key.size() - 4) != ", 1)") continue;  // scale factor 1 only
    std::vector<double> row;
    for (const char* gpu : {"v100", "p100", "k80"}) row.push_back(throughputs.at(gpu).at(key).at("null"));
    g.problem.throughput[key] = row;
    g.job_types.push_back(key);
  }
  for (size_t i = 0; i < g.job_types.size(); ++i) {
    g.problem.teams.push_back(
        {absl::StrCat("team", i < 10 ? "0" : "", i), g.job_types[i], 1, devices_each_team, {}, {}});
  }
  return g;
}

// The same LP built from the problem's definition alone (docs/allocation.md),
// solved by GLPK's simplex: the largest t with every team's
// sum_f T_f y_f / (E w) >= t. Returns t*.
double GlpkMaxMin(const HeterogeneityProblem& p) {
  const size_t nf = p.flavors.size();
  double n = 0;
  for (const auto& t : p.teams) n += t.demand_milli > 0 ? 1 : 0;
  glp_prob* lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MAX);
  const int cols = static_cast<int>(p.teams.size() * nf) + 1;
  glp_add_cols(lp, cols);
  glp_set_col_bnds(lp, cols, GLP_LO, 0, 0);
  glp_set_obj_coef(lp, cols, 1);
  glp_add_rows(lp, static_cast<int>(nf + 2 * p.teams.size()));
  std::vector<int> ia = {0}, ja = {0};
  std::vector<double> ar = {0};
  for (size_t f = 0; f < nf; ++f) {
    glp_set_row_bnds(lp, static_cast<int>(f) + 1, GLP_UP, 0, p.flavors[f].capacity_milli / 1000.0);
  }
  for (size_t j = 0; j < p.teams.size(); ++j) {
    const HeterogeneityTeam& t = p.teams[j];
    const std::vector<double>& row = p.throughput.at(t.workload_class);
    // Equal share: C_f / n of each flavor, scaled to the team's demand.
    double share_devices = 0, share_throughput = 0;
    for (size_t f = 0; f < nf; ++f) {
      share_devices += p.flavors[f].capacity_milli / 1000.0 / n;
      share_throughput += row[f] * p.flavors[f].capacity_milli / 1000.0 / n;
    }
    const double equal = share_throughput * std::min(1.0, t.demand_milli / 1000.0 / share_devices);
    const int demand_row = static_cast<int>(nf + j) + 1, fair_row = static_cast<int>(nf + p.teams.size() + j) + 1;
    glp_set_row_bnds(lp, demand_row, GLP_UP, 0, t.demand_milli / 1000.0);
    // A team that can run nowhere (no demand, or no capacity where it runs) takes no part in the minimum.
    glp_set_row_bnds(lp, fair_row, equal > 0 ? GLP_LO : GLP_FR, 0, 0);
    for (size_t f = 0; f < nf; ++f) {
      const int col = static_cast<int>(j * nf + f) + 1;
      const double lo = t.floor_milli.empty() ? 0 : t.floor_milli[f] / 1000.0;
      double hi = t.demand_milli / 1000.0;
      if (!t.limit_milli.empty() && t.limit_milli[f]) hi = std::min(hi, *t.limit_milli[f] / 1000.0);
      glp_set_col_bnds(lp, col, lo == hi ? GLP_FX : GLP_DB, lo, hi);
      ia.push_back(static_cast<int>(f) + 1), ja.push_back(col), ar.push_back(1);
      ia.push_back(demand_row), ja.push_back(col), ar.push_back(1);
      if (equal > 0) {
        ia.push_back(fair_row), ja.push_back(col), ar.push_back(row[f] / equal / static_cast<double>(t.weight));
      }
    }
    ia.push_back(fair_row), ja.push_back(cols), ar.push_back(-1);
  }
  glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.tol_bnd = 1e-10;
  parm.tol_dj = 1e-10;
  EXPECT_EQ(glp_simplex(lp, &parm), 0);
  EXPECT_EQ(glp_get_status(lp), GLP_OPT);
  const double t = glp_get_obj_val(lp);
  glp_delete_prob(lp);
  return t;
}

// The heterogeneity-agnostic division: each flavor split by weighted max-min
// (water-filling, each team capped at its demand), then each team's devices
// scaled down to its demand (it cannot run on more at once). Returns the
// smallest normalised throughput / weight it reaches.
double AgnosticMinimum(const HeterogeneityProblem& p) {
  const size_t nf = p.flavors.size();
  std::vector<int64_t> caps, weights;
  for (const auto& t : p.teams) caps.push_back(t.demand_milli), weights.push_back(t.weight);
  std::vector<std::vector<long double>> got;
  for (size_t f = 0; f < nf; ++f) {
    got.push_back(SplitByWeight(static_cast<long double>(p.flavors[f].capacity_milli), caps, weights));
  }
  size_t n = 0;
  for (const auto& t : p.teams) n += t.demand_milli > 0 ? 1 : 0;
  double least = 1e300;
  for (size_t j = 0; j < p.teams.size(); ++j) {
    const std::vector<double>& row = p.throughput.at(p.teams[j].workload_class);
    long double total = 0;
    for (size_t f = 0; f < nf; ++f) total += got[f][j];
    const long double scale = total > p.teams[j].demand_milli ? p.teams[j].demand_milli / total : 1.0L;
    double throughput = 0;
    for (size_t f = 0; f < nf; ++f) throughput += row[f] * static_cast<double>(got[f][j] * scale) / 1000.0;
    const double equal = EqualShareThroughput(row, p.flavors, n, p.teams[j].demand_milli);
    least = std::min(least, throughput / equal / static_cast<double>(p.teams[j].weight));
  }
  return least;
}

// The invariants of any result: capacity, demand, floors and limits hold;
// every team reaches t* (within the LP's tolerance).
void ExpectInvariants(const HeterogeneityProblem& p, const HeterogeneityAllocation& r) {
  for (size_t f = 0; f < p.flavors.size(); ++f) {
    int64_t sum = 0;
    for (const auto& s : r.teams) sum += s.recommended_milli[f];
    EXPECT_LE(sum, p.flavors[f].capacity_milli) << p.flavors[f].name;
  }
  for (const auto& s : r.teams) {
    // Per-flavor rounding may add up to one milli-device per flavor.
    EXPECT_LE(s.recommended_total_milli, s.input.demand_milli + static_cast<int64_t>(p.flavors.size())) << s.input.team;
    if (s.equal_share_throughput > 0) {
      EXPECT_GE(s.normalised_throughput / static_cast<double>(s.input.weight),
                r.min_weighted_normalised_throughput - 1e-6)
          << s.input.team;
    }
    for (size_t f = 0; f < p.flavors.size(); ++f) {
      if (!s.input.floor_milli.empty()) {
        EXPECT_GE(s.recommended_milli[f], s.input.floor_milli[f]);
      }
      if (!s.input.limit_milli.empty() && s.input.limit_milli[f]) {
        EXPECT_LE(s.recommended_milli[f], *s.input.limit_milli[f]);
      }
    }
  }
}

TEST(HeterogeneityLpGavel, ObjectiveEqualsGlpkAndBeatsTheAgnosticDivision) {
  // 26 job types, one team each, 100 devices wanted each: 2,600 wanted of 900.
  Gavel g = LoadGavel(100'000);
  ASSERT_EQ(g.job_types.size(), 26u);
  absl::StatusOr<HeterogeneityAllocation> r = AllocateHeterogeneous(g.problem);
  ASSERT_TRUE(r.ok()) << r.status();
  const double glpk = GlpkMaxMin(g.problem);
  EXPECT_NEAR(r->min_weighted_normalised_throughput, glpk, 1e-6);
  ExpectInvariants(g.problem, *r);
  const double agnostic = AgnosticMinimum(g.problem);
  const double gain = r->min_weighted_normalised_throughput - agnostic;
  std::printf(
      "gavel 300:300:300, 26 job types x 100 devices: min normalised throughput %.6f (GLPK %.6f), "
      "heterogeneity-agnostic %.6f, gain %.6f (x%.4f)\n",
      r->min_weighted_normalised_throughput, glpk, agnostic, gain, r->min_weighted_normalised_throughput / agnostic);
  EXPECT_GE(gain, -1e-9);
}

TEST(HeterogeneityLpGavel, WeightedFloorsAndLimitsMatchGlpk) {
  Gavel g = LoadGavel(50'000);
  std::mt19937_64 rng(13);
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  for (int round = 0; round < 20; ++round) {
    HeterogeneityProblem p = g.problem;
    for (auto& f : p.flavors) f.capacity_milli = uniform(0, 600'000);
    for (auto& t : p.teams) {
      t.weight = uniform(1, 5);
      t.demand_milli = uniform(0, 4) == 0 ? 0 : uniform(1, 80'000);
      t.floor_milli.assign(3, 0);
      t.limit_milli.assign(3, std::nullopt);
      for (size_t f = 0; f < 3; ++f) {
        if (uniform(0, 3) == 0) t.limit_milli[f] = uniform(0, 40'000);
        if (uniform(0, 5) == 0) {
          t.floor_milli[f] = std::min({uniform(0, 5'000), t.limit_milli[f].value_or(kMaxMilli), t.demand_milli / 3,
                                       p.flavors[f].capacity_milli / 30});
        }
      }
    }
    SCOPED_TRACE(absl::StrCat("round ", round));
    absl::StatusOr<HeterogeneityAllocation> r = AllocateHeterogeneous(p);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_NEAR(r->min_weighted_normalised_throughput, GlpkMaxMin(p), 1e-6);
    ExpectInvariants(p, *r);
  }
}

TEST(HeterogeneityLpGavel, SameResultWhateverTheOrderOfTheTeams) {
  Gavel g = LoadGavel(100'000);
  absl::StatusOr<HeterogeneityAllocation> a = AllocateHeterogeneous(g.problem);
  std::reverse(g.problem.teams.begin(), g.problem.teams.end());
  absl::StatusOr<HeterogeneityAllocation> b = AllocateHeterogeneous(g.problem);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->teams.size(), b->teams.size());
  for (size_t i = 0; i < a->teams.size(); ++i) {
    const auto& x = a->teams[i];
    const auto& y = b->teams[a->teams.size() - 1 - i];
    EXPECT_EQ(x.input.team, y.input.team);
    EXPECT_EQ(x.recommended_milli, y.recommended_milli) << x.input.team;
  }
}

}  // namespace
}  // namespace fleetcap::allocation
