#include "policy/policy_diff.h"

#include <functional>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "policy/text_rules.h"

namespace fleetcap::policy {
namespace {

std::string Money(int64_t micro) { return FormatDecimal(micro, 6, 2); }
std::string Limit(const std::optional<int64_t>& milli) { return milli ? FormatDevices(*milli) : "unlimited"; }
std::string Declared(const std::optional<int64_t>& milli) { return milli ? FormatDevices(*milli) : "measured"; }
std::string Clusters(const std::string& c) { return c.empty() ? "all clusters" : "cluster " + c; }

// Keyed comparison of two lists: `added`, `removed` and `changed` describe entries.
template <typename T>
void DiffKeyed(const std::vector<T>& before, const std::vector<T>& after, std::function<std::string(const T&)> key,
               std::function<std::string(const T&)> added, std::function<std::string(const T&)> removed,
               std::function<void(const T&, const T&, std::vector<std::string>&)> changed,
               std::vector<std::string>& out) {
  std::map<std::string, const T*> old_by_key, new_by_key;
  for (const T& t : before) old_by_key[key(t)] = &t;
  for (const T& t : after) new_by_key[key(t)] = &t;
  for (const auto& [k, t] : new_by_key) {
    auto old = old_by_key.find(k);
    if (old == old_by_key.end()) {
      out.push_back(added(*t));
    } else {
      changed(*old->second, *t, out);
    }
  }
  for (const auto& [k, t] : old_by_key) {
    if (new_by_key.count(k) == 0) out.push_back(removed(*t));
  }
}

void Changed(std::vector<std::string>& out, const std::string& what, const std::string& from, const std::string& to) {
  if (from != to) out.push_back(absl::StrCat(what, ": ", from, " -> ", to));
}

std::string Parent(const std::string& p) { return p.empty() ? "(root)" : p; }

void DiffTeams(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  DiffKeyed<Team>(
      before.teams, after.teams, [](const Team& t) { return t.name; },
      [](const Team& t) { return absl::StrCat(t.kind, " added: ", t.name, " (under ", Parent(t.parent), ")"); },
      [](const Team& t) { return absl::StrCat(t.kind, " removed: ", t.name); },
      [](const Team& a, const Team& b, std::vector<std::string>& o) {
        Changed(o, absl::StrCat("team ", b.name, " parent"), Parent(a.parent), Parent(b.parent));
        Changed(o, absl::StrCat("team ", b.name, " kind"), a.kind, b.kind);
        Changed(o, absl::StrCat("team ", b.name, " weight"), std::to_string(a.weight), std::to_string(b.weight));
        Changed(o, absl::StrCat("team ", b.name, " cost centre"), a.cost_centre, b.cost_centre);
        Changed(o, absl::StrCat("team ", b.name, " workload class"), a.workload_class, b.workload_class);
      },
      out);
}

void DiffNamespaceRules(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  auto ns_name = [](const NamespaceRule& n) {
    return absl::StrCat(n.namespace_name.empty() ? "namespaces matching " + n.pattern : "namespace " + n.namespace_name,
                        " in clusters ", n.cluster);
  };
  DiffKeyed<NamespaceRule>(
      before.namespaces, after.namespaces, ns_name,
      [&](const NamespaceRule& n) { return absl::StrCat(ns_name(n), " mapped to team ", n.team); },
      [&](const NamespaceRule& n) { return absl::StrCat(ns_name(n), " no longer mapped (was team ", n.team, ")"); },
      [&](const NamespaceRule& a, const NamespaceRule& b, std::vector<std::string>& o) {
        if (a.team != b.team) o.push_back(absl::StrCat(ns_name(b), " moved from team ", a.team, " to ", b.team));
      },
      out);
}

void DiffTrustedPods(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  auto trust_scope = [](const PodTrust& t) {
    return absl::StrCat("pods in namespaces matching ", t.namespace_pattern, " in clusters ", t.cluster);
  };
  auto trusted = [](const PodTrust& t) {
    std::vector<std::string> what;
    if (t.team_label) what.push_back("team label");
    if (t.gpu_share) what.push_back("GPU share");
    return absl::StrJoin(what, " and ");
  };
  DiffKeyed<PodTrust>(
      before.trusted_pods, after.trusted_pods, trust_scope,
      [&](const PodTrust& t) { return absl::StrCat(trust_scope(t), ": trusted for ", trusted(t)); },
      [&](const PodTrust& t) { return absl::StrCat(trust_scope(t), ": no longer trusted (was ", trusted(t), ")"); },
      [&](const PodTrust& a, const PodTrust& b, std::vector<std::string>& o) {
        Changed(o, absl::StrCat(trust_scope(b), " trusted for"), trusted(a), trusted(b));
      },
      out);
}

void DiffFlavors(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  DiffKeyed<Flavor>(
      before.flavors, after.flavors, [](const Flavor& f) { return f.name; },
      [](const Flavor& f) {
        return absl::StrCat("flavor added: ", f.name, " (", f.model, ", capacity ", FormatDevices(f.capacity_milli),
                            ")");
      },
      [](const Flavor& f) { return absl::StrCat("flavor removed: ", f.name); },
      [](const Flavor& a, const Flavor& b, std::vector<std::string>& o) {
        const std::string w = "flavor " + b.name;
        Changed(o, w + " model", a.model, b.model);
        Changed(o, w + " pool", a.pool, b.pool);
        Changed(o, w + " clusters", a.cluster, b.cluster);
        Changed(o, w + " sharing", a.sharing, b.sharing);
        Changed(o, w + " capacity", FormatDevices(a.capacity_milli), FormatDevices(b.capacity_milli));
      },
      out);
}

void DiffPrices(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  auto price_name = [](const Price& p) {
    return absl::StrCat("price of ", p.model, " in ", Clusters(p.cluster), " from ", FormatRfc3339(p.from));
  };
  DiffKeyed<Price>(
      before.prices, after.prices, price_name,
      [&](const Price& p) {
        return absl::StrCat(price_name(p), " added: ", Money(p.micro_per_device_hour), " per device-hour",
                            p.to ? " until " + FormatRfc3339(*p.to) : "");
      },
      [&](const Price& p) {
        return absl::StrCat(price_name(p), " removed (was ", Money(p.micro_per_device_hour), ")");
      },
      [&](const Price& a, const Price& b, std::vector<std::string>& o) {
        if (a.micro_per_device_hour != b.micro_per_device_hour) {
          o.push_back(absl::StrCat(price_name(b), ": ", Money(a.micro_per_device_hour), " -> ",
                                   Money(b.micro_per_device_hour), " per device-hour"));
        }
        Changed(o, price_name(b) + " ends", a.to ? FormatRfc3339(*a.to) : "never",
                b.to ? FormatRfc3339(*b.to) : "never");
      },
      out);
}

void DiffAttribution(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  const Attribution& a = before.attribution;
  const Attribution& b = after.attribution;
  Changed(out, "attribution basis", a.basis, b.basis);
  Changed(out, "attribution idle", a.idle, b.idle);
  Changed(out, "attribution idle scope", a.idle_scope, b.idle_scope);
  Changed(out, "attribution shared spread", a.shared_spread, b.shared_spread);
  Changed(out, "attribution shared namespaces", absl::StrJoin(a.shared_namespaces, ", "),
          absl::StrJoin(b.shared_namespaces, ", "));
  auto costs = [](const Attribution& x) {
    std::vector<std::string> parts;
    for (const auto& c : x.fixed_monthly_costs) parts.push_back(absl::StrCat(c.name, " ", Money(c.micro_per_month)));
    return absl::StrJoin(parts, ", ");
  };
  Changed(out, "attribution fixed monthly costs", costs(a), costs(b));
}

void DiffAllocationRules(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  auto rule_name = [](const AllocationRule& r) { return absl::StrCat("allocation of ", r.team, " on ", r.flavor); };
  DiffKeyed<AllocationRule>(
      before.allocation, after.allocation, rule_name,
      [&](const AllocationRule& r) {
        return absl::StrCat(rule_name(r), " added: guarantee ", FormatDevices(r.guarantee_milli), ", borrowing limit ",
                            Limit(r.borrowing_limit_milli), ", lending limit ", Limit(r.lending_limit_milli));
      },
      [&](const AllocationRule& r) { return rule_name(r) + " removed"; },
      [&](const AllocationRule& x, const AllocationRule& y, std::vector<std::string>& o) {
        Changed(o, rule_name(y) + " guarantee", FormatDevices(x.guarantee_milli), FormatDevices(y.guarantee_milli));
        Changed(o, rule_name(y) + " borrowing limit", Limit(x.borrowing_limit_milli), Limit(y.borrowing_limit_milli));
        Changed(o, rule_name(y) + " lending limit", Limit(x.lending_limit_milli), Limit(y.lending_limit_milli));
        Changed(o, rule_name(y) + " weight", std::to_string(x.weight), std::to_string(y.weight));
        Changed(o, rule_name(y) + " declared demand", Declared(x.demand_milli), Declared(y.demand_milli));
      },
      out);
}

void DiffThroughputs(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  auto throughput_name = [](const Throughput& t) {
    return absl::StrCat("throughput of ", t.workload_class, " on ", t.flavor);
  };
  DiffKeyed<Throughput>(
      before.throughput, after.throughput, throughput_name,
      [&](const Throughput& t) { return absl::StrCat(throughput_name(t), " added: ", FormatDecimal(t.micro, 6)); },
      [&](const Throughput& t) { return throughput_name(t) + " removed"; },
      [&](const Throughput& x, const Throughput& y, std::vector<std::string>& o) {
        Changed(o, throughput_name(y), FormatDecimal(x.micro, 6), FormatDecimal(y.micro, 6));
      },
      out);
}

void DiffInsights(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  const InsightOptions& a = before.insights;
  const InsightOptions& b = after.insights;
  auto percent = [](int64_t basis_points) { return FormatDecimal(basis_points, 2) + "%"; };
  Changed(out, "insights idle below", percent(a.idle_below_basis_points), percent(b.idle_below_basis_points));
  Changed(out, "insights idle for", absl::FormatDuration(a.idle_for), absl::FormatDuration(b.idle_for));
  Changed(out, "insights rightsizing lookback", absl::StrCat(a.rightsizing_lookback_days, " days"),
          absl::StrCat(b.rightsizing_lookback_days, " days"));
  Changed(out, "insights memory headroom", absl::StrCat(a.memory_headroom_percent, "%"),
          absl::StrCat(b.memory_headroom_percent, "%"));
}

void DiffBudgets(const PolicyDocument& before, const PolicyDocument& after, std::vector<std::string>& out) {
  auto budget_name = [](const Budget& x) {
    return absl::StrFormat("budget of %s for %04d-%02d", x.team, x.year, x.month);
  };
  DiffKeyed<Budget>(
      before.budgets, after.budgets, budget_name,
      [&](const Budget& x) { return absl::StrCat(budget_name(x), " added: ", Money(x.micro_amount)); },
      [&](const Budget& x) { return absl::StrCat(budget_name(x), " removed (was ", Money(x.micro_amount), ")"); },
      [&](const Budget& x, const Budget& y, std::vector<std::string>& o) {
        Changed(o, budget_name(y), Money(x.micro_amount), Money(y.micro_amount));
      },
      out);
}

}  // namespace

// One line per change, section by section in the document's order.
std::vector<std::string> DiffPolicies(const PolicyDocument& before, const PolicyDocument& after) {
  std::vector<std::string> out;
  Changed(out, "currency", before.currency, after.currency);
  Changed(out, "demand headroom", absl::StrCat(before.demand_headroom_percent, "%"),
          absl::StrCat(after.demand_headroom_percent, "%"));
  DiffTeams(before, after, out);
  DiffNamespaceRules(before, after, out);
  Changed(out, "team label keys", absl::StrJoin(before.team_label_keys, ", "),
          absl::StrJoin(after.team_label_keys, ", "));
  DiffTrustedPods(before, after, out);
  DiffFlavors(before, after, out);
  DiffPrices(before, after, out);
  DiffAttribution(before, after, out);
  DiffAllocationRules(before, after, out);
  DiffThroughputs(before, after, out);
  DiffInsights(before, after, out);
  DiffBudgets(before, after, out);
  return out;
}

}  // namespace fleetcap::policy
