#include "policy/policy_validation.h"

#include <limits>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "policy/insights_section.h"
#include "policy/text_rules.h"

namespace fleetcap::policy {
namespace {

std::string Index(const std::string& list, size_t i) { return absl::StrCat(list, "[", i, "]"); }

void CheckTeams(const PolicyDocument& doc, std::vector<PolicyError>& errors) {
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < doc.teams.size(); ++i) {
    const Team& t = doc.teams[i];
    if (t.name == "unassigned" || t.name == "idle") {
      errors.push_back({LineOf(t, "name"), 0, Index("teams", i) + ".name",
                        absl::StrCat("\"", t.name, "\" is reserved for chargeback lines (expected another name)")});
    }
    auto [it, inserted] = by_name.emplace(t.name, i);
    if (!inserted) {
      errors.push_back({LineOf(t, "name"), 0, Index("teams", i) + ".name",
                        absl::StrCat("team \"", t.name, "\" is already defined at line ", doc.teams[it->second].line,
                                     " (expected unique names)")});
    }
  }
  for (size_t i = 0; i < doc.teams.size(); ++i) {
    const Team& t = doc.teams[i];
    if (!t.parent.empty() && by_name.count(t.parent) == 0) {
      errors.push_back({LineOf(t, "parent"), 0, Index("teams", i) + ".parent",
                        absl::StrCat("unknown team \"", t.parent, "\" (expected a team defined under teams)")});
    }
  }
  // A cycle: following parents from a team comes back to it (each member is named).
  for (size_t i = 0; i < doc.teams.size(); ++i) {
    std::vector<std::string> path = {doc.teams[i].name};
    std::set<std::string> seen = {doc.teams[i].name};
    std::string at = doc.teams[i].parent;
    while (!at.empty() && by_name.count(at) > 0) {
      path.push_back(at);
      if (at == doc.teams[i].name) {
        errors.push_back({LineOf(doc.teams[i], "parent"), 0, Index("teams", i) + ".parent",
                          absl::StrCat("cycle in the org tree: ", absl::StrJoin(path, " -> "),
                                       " (expected a tree: every team reaches a root)")});
        break;
      }
      if (!seen.insert(at).second) break;  // a cycle above this team, reported at its members
      at = doc.teams[by_name[at]].parent;
    }
  }
}

void CheckNamespaces(const PolicyDocument& doc, std::vector<PolicyError>& errors) {
  std::set<std::string> teams;
  for (const auto& t : doc.teams) teams.insert(t.name);
  std::map<std::pair<std::string, std::string>, int> exact;
  for (size_t i = 0; i < doc.namespaces.size(); ++i) {
    const NamespaceRule& n = doc.namespaces[i];
    if (teams.count(n.team) == 0) {
      errors.push_back({LineOf(n, "team"), 0, Index("namespaces", i) + ".team",
                        absl::StrCat("unknown team \"", n.team, "\" (expected a team defined under teams)")});
    }
    const std::string key = n.namespace_name.empty() ? "pattern:" + n.pattern : n.namespace_name;
    auto [it, inserted] = exact.emplace(std::make_pair(n.cluster, key), n.line);
    if (!inserted) {
      errors.push_back({n.line, 0, Index("namespaces", i),
                        absl::StrCat("namespace ", n.namespace_name.empty() ? n.pattern : n.namespace_name,
                                     " in clusters ", n.cluster, " is already mapped at line ", it->second,
                                     " (expected one mapping per namespace)")});
    }
  }
}

void CheckTrustedPods(const PolicyDocument& doc, std::vector<PolicyError>& errors) {
  std::map<std::pair<std::string, std::string>, int> scopes;
  for (size_t i = 0; i < doc.trusted_pods.size(); ++i) {
    const PodTrust& t = doc.trusted_pods[i];
    auto [it, inserted] = scopes.emplace(std::make_pair(t.cluster, t.namespace_pattern), t.line);
    if (!inserted) {
      errors.push_back(
          {t.line, 0, Index("trusted_pods", i),
           absl::StrCat("namespaces ", t.namespace_pattern, " in clusters ", t.cluster, " are already listed at line ",
                        it->second, " (expected one entry per cluster and namespace pattern)")});
    }
  }
}

void CheckPrices(const PolicyDocument& doc, std::vector<PolicyError>& errors) {
  for (size_t i = 0; i < doc.prices.size(); ++i) {
    const Price& a = doc.prices[i];
    for (size_t j = 0; j < i; ++j) {
      const Price& b = doc.prices[j];
      if (a.model != b.model || a.cluster != b.cluster) continue;
      const absl::Time a_end = a.to.value_or(absl::InfiniteFuture());
      const absl::Time b_end = b.to.value_or(absl::InfiniteFuture());
      if (a.from < b_end && b.from < a_end) {
        errors.push_back(
            {LineOf(a, "from"), 0, Index("prices", i) + ".from",
             absl::StrCat("price period for ", a.model, " in ",
                          a.cluster.empty() ? "all clusters" : "cluster " + a.cluster, " from ", FormatRfc3339(a.from),
                          " overlaps the one at line ", LineOf(b, "from"), " (expected periods that do not overlap)")});
        break;
      }
    }
  }
}

void CheckAllocation(const PolicyDocument& doc, std::vector<PolicyError>& errors) {
  std::set<std::string> teams;
  for (const auto& t : doc.teams) teams.insert(t.name);
  std::map<std::string, const Flavor*> flavors;
  for (size_t i = 0; i < doc.flavors.size(); ++i) {
    const Flavor& f = doc.flavors[i];
    if (!flavors.emplace(f.name, &f).second) {
      errors.push_back({LineOf(f, "name"), 0, Index("flavors", i) + ".name",
                        absl::StrCat("flavor \"", f.name, "\" is already defined (expected unique names)")});
    }
  }
  std::map<std::string, int64_t> guaranteed;
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < doc.allocation.size(); ++i) {
    const AllocationRule& a = doc.allocation[i];
    const std::string f = Index("allocation", i);
    if (teams.count(a.team) == 0) {
      errors.push_back({LineOf(a, "team"), 0, f + ".team",
                        absl::StrCat("unknown team \"", a.team, "\" (expected a team defined under teams)")});
    }
    auto flavor = flavors.find(a.flavor);
    if (flavor == flavors.end()) {
      errors.push_back({LineOf(a, "flavor"), 0, f + ".flavor",
                        absl::StrCat("unknown flavor \"", a.flavor, "\" (expected a flavor defined under flavors)")});
      continue;
    }
    if (!seen.emplace(a.team, a.flavor).second) {
      errors.push_back({a.line, 0, f,
                        absl::StrCat("team ", a.team, " on flavor ", a.flavor,
                                     " is already set (expected one entry per team and flavor)")});
    }
    // The allocation engine's bound (a billion devices), so a declared demand
    // never makes a whole run fail.
    constexpr int64_t kMaxDemandMilli = 1'000'000'000'000;
    if (a.demand_milli && *a.demand_milli > kMaxDemandMilli) {
      errors.push_back({LineOf(a, "demand"), 0, f + ".demand",
                        absl::StrCat("demand ", FormatDecimal(*a.demand_milli, 3),
                                     " is above 1000000000 devices (expected at most a billion devices)")});
    }
    if (a.lending_limit_milli && *a.lending_limit_milli > a.guarantee_milli) {
      errors.push_back(
          {LineOf(a, "lending_limit"), 0, f + ".lending_limit",
           absl::StrCat("lending limit ", FormatDecimal(*a.lending_limit_milli, 3), " is above the guarantee ",
                        FormatDecimal(a.guarantee_milli, 3), " (expected at most the guarantee)")});
    }
    int64_t& sum = guaranteed[a.flavor];
    const bool was_within = sum <= flavor->second->capacity_milli;
    // Past int64 the sum is certainly above any capacity; saturate rather than wrap negative.
    if (__builtin_add_overflow(sum, a.guarantee_milli, &sum)) {
      if (was_within) {
        errors.push_back(
            {LineOf(a, "guarantee"), 0, f + ".guarantee",
             absl::StrCat("guarantees on flavor ", a.flavor, " sum to more than ",
                          FormatDecimal(std::numeric_limits<int64_t>::max(), 3), " devices, above its capacity ",
                          FormatDecimal(flavor->second->capacity_milli, 3), " (line ",
                          LineOf(*flavor->second, "capacity"), "; expected a sum within capacity)")});
      }
      sum = std::numeric_limits<int64_t>::max();
      continue;
    }
    if (was_within && sum > flavor->second->capacity_milli) {
      errors.push_back(
          {LineOf(a, "guarantee"), 0, f + ".guarantee",
           absl::StrCat("guarantees on flavor ", a.flavor, " sum to at least ", FormatDecimal(sum, 3),
                        " devices, above its capacity ", FormatDecimal(flavor->second->capacity_milli, 3), " (line ",
                        LineOf(*flavor->second, "capacity"), "; expected a sum within capacity)")});
    }
  }
}

// The throughput matrix: known flavors, one value per class and flavor, and
// every team's class in it with some throughput somewhere.
void CheckThroughput(const PolicyDocument& doc, std::vector<PolicyError>& errors) {
  constexpr int64_t kMaxThroughputMicro = 1'000'000'000'000'000;  // 10^9 in any unit
  std::set<std::string> flavors;
  for (const auto& f : doc.flavors) flavors.insert(f.name);
  std::map<std::pair<std::string, std::string>, int> seen;
  std::map<std::string, int64_t> class_total;
  for (size_t i = 0; i < doc.throughput.size(); ++i) {
    const Throughput& t = doc.throughput[i];
    const std::string f = Index("throughput", i);
    if (flavors.count(t.flavor) == 0) {
      errors.push_back({LineOf(t, "flavor"), 0, f + ".flavor",
                        absl::StrCat("unknown flavor \"", t.flavor, "\" (expected a flavor defined under flavors)")});
    }
    auto [it, inserted] = seen.emplace(std::make_pair(t.workload_class, t.flavor), t.line);
    if (!inserted) {
      errors.push_back({t.line, 0, f,
                        absl::StrCat("class ", t.workload_class, " on flavor ", t.flavor, " is already set at line ",
                                     it->second, " (expected one entry per class and flavor)")});
    }
    if (t.micro > kMaxThroughputMicro) {
      errors.push_back({LineOf(t, "value"), 0, f + ".value",
                        absl::StrCat("throughput ", FormatDecimal(t.micro, 6), " is above ",
                                     FormatDecimal(kMaxThroughputMicro, 6), " (expected a smaller unit)")});
    }
    int64_t& total = class_total[t.workload_class];
    if (__builtin_add_overflow(total, t.micro, &total)) total = std::numeric_limits<int64_t>::max();
  }
  for (size_t i = 0; i < doc.teams.size(); ++i) {
    const Team& team = doc.teams[i];
    if (team.workload_class.empty()) continue;
    const std::string f = Index("teams", i) + ".workload_class";
    auto it = class_total.find(team.workload_class);
    if (it == class_total.end()) {
      errors.push_back({LineOf(team, "workload_class"), 0, f,
                        absl::StrCat("unknown workload class \"", team.workload_class,
                                     "\" (expected a class listed under throughput)")});
    } else if (it->second == 0) {
      errors.push_back({LineOf(team, "workload_class"), 0, f,
                        absl::StrCat("workload class ", team.workload_class,
                                     " has no throughput on any flavor (expected a value above 0 somewhere)")});
    }
  }
}

}  // namespace

std::vector<PolicyError> ValidatePolicy(const PolicyDocument& doc) {
  std::vector<PolicyError> errors;
  CheckTeams(doc, errors);
  CheckNamespaces(doc, errors);
  CheckTrustedPods(doc, errors);
  CheckPrices(doc, errors);
  CheckAllocation(doc, errors);
  CheckThroughput(doc, errors);
  CheckBudgets(doc, errors);
  return errors;
}

std::vector<std::string> Subtree(const PolicyDocument& policy, const std::string& team) {
  std::vector<std::string> out;
  bool known = false;
  for (const auto& t : policy.teams) known = known || t.name == team;
  if (!known) return out;
  out.push_back(team);
  // Breadth-first over children; a (rejected) cycle cannot loop because each team is taken once.
  std::set<std::string> taken = {team};
  for (size_t i = 0; i < out.size(); ++i) {
    for (const auto& t : policy.teams) {
      if (t.parent == out[i] && taken.insert(t.name).second) out.push_back(t.name);
    }
  }
  return out;
}

}  // namespace fleetcap::policy
