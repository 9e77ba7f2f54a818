#include "policy/policy_parser.h"

#include <algorithm>
#include <initializer_list>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "policy/insights_section.h"
#include "policy/policy_validation.h"
#include "policy/text_rules.h"
#include "policy/yaml_reader.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::policy {
namespace {

void ReadTeams(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "teams")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node t = node[i];
    const std::string f = Index("teams", i);
    if (!r.Map(t, f, {"name", "parent", "kind", "weight", "cost_centre", "workload_class"})) continue;
    Team team;
    team.field_lines = FieldLines(t);
    team.line = t.Mark().line + 1;
    team.name = r.Name(t, "name", f, true);
    team.parent = r.Name(t, "parent", f, false);
    team.kind = r.OneOf(t, "kind", f, {"org", "team", "project"}, "team");
    team.weight = r.Weight(t, f).value_or(1);
    team.cost_centre = r.Text(t, "cost_centre", f);
    team.workload_class = r.Name(t, "workload_class", f, false);
    if (!team.name.empty()) doc.teams.push_back(std::move(team));
  }
}

void ReadNamespaces(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "namespaces")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("namespaces", i);
    if (!r.Map(n, f, {"namespace", "pattern", "team", "cluster"})) continue;
    NamespaceRule rule;
    rule.field_lines = FieldLines(n);
    rule.line = n.Mark().line + 1;
    rule.namespace_name = r.Name(n, "namespace", f, false);
    rule.pattern = r.Glob(n, "pattern", f, "");
    const bool has_ns = n["namespace"].IsDefined(), has_pattern = n["pattern"].IsDefined();
    if (has_ns == has_pattern) {
      r.Error(n.Mark(), f, "expected exactly one of namespace (an exact name) or pattern (a glob)");
    }
    rule.team = r.Name(n, "team", f, true);
    rule.cluster = r.Glob(n, "cluster", f, "*");
    if (has_ns != has_pattern) doc.namespaces.push_back(std::move(rule));
  }
}

void ReadLabelKeys(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "team_label_keys")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node k = node[i];
    if (!k.IsScalar() || !IsLabelKey(k.Scalar())) {
      r.Error(k.Mark(), Index("team_label_keys", i),
              "expected a Kubernetes label key (1-253 letters, digits, '.', '_', '/' or '-')");
      continue;
    }
    doc.team_label_keys.push_back(k.Scalar());
  }
}

void ReadTrustedPods(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "trusted_pods")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("trusted_pods", i);
    if (!r.Map(n, f, {"cluster", "namespace", "team_label", "gpu_share"})) continue;
    PodTrust trust;
    trust.field_lines = FieldLines(n);
    trust.line = n.Mark().line + 1;
    trust.cluster = r.Glob(n, "cluster", f, "*");
    trust.namespace_pattern = r.Glob(n, "namespace", f, "*");
    trust.team_label = r.Bool(n, "team_label", f).value_or(false);
    trust.gpu_share = r.Bool(n, "gpu_share", f).value_or(false);
    if (!trust.team_label && !trust.gpu_share) {
      r.Error(n.Mark(), f, "trusts nothing (expected team_label: true and/or gpu_share: true)");
      continue;
    }
    doc.trusted_pods.push_back(std::move(trust));
  }
}

void ReadFlavors(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "flavors")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("flavors", i);
    if (!r.Map(n, f, {"name", "model", "pool", "cluster", "capacity", "sharing"})) continue;
    Flavor flavor;
    flavor.field_lines = FieldLines(n);
    flavor.line = n.Mark().line + 1;
    flavor.name = r.Name(n, "name", f, true);
    flavor.model = r.Name(n, "model", f, true);
    flavor.pool = r.Name(n, "pool", f, false);
    flavor.cluster = r.Glob(n, "cluster", f, "*");
    flavor.capacity_milli = r.NonNegative(n, "capacity", f, true, 3, "capacity").value_or(0);
    flavor.sharing = r.OneOf(n, "sharing", f, {"whole", "mig", "time-slicing"}, "whole");
    if (!flavor.name.empty()) doc.flavors.push_back(std::move(flavor));
  }
}

void ReadPrices(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "prices")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("prices", i);
    if (!r.Map(n, f, {"model", "cluster", "from", "to", "per_device_hour"})) continue;
    Price price;
    price.field_lines = FieldLines(n);
    price.line = n.Mark().line + 1;
    price.model = r.Name(n, "model", f, true);
    price.cluster = r.Name(n, "cluster", f, false);
    auto from = r.Time(n, "from", f, true);
    price.to = r.Time(n, "to", f, false);
    auto micro = r.NonNegative(n, "per_device_hour", f, true, 6, "price");
    if (from && price.to && *price.to <= *from) {
      r.Error(r.MarkOf(n, "to"), f + ".to", "must be after from (prices hold over [from, to))");
      continue;
    }
    if (price.model.empty() || !from || !micro) continue;
    price.from = *from;
    price.micro_per_device_hour = *micro;
    doc.prices.push_back(std::move(price));
  }
}

void ReadAttribution(YamlReader& r, const YAML::Node& n, PolicyDocument& doc) {
  const std::string f = "attribution";
  if (!r.Map(n, f, {"basis", "idle", "idle_scope", "shared_spread", "shared_namespaces", "fixed_monthly_costs"})) {
    return;
  }
  Attribution& a = doc.attribution;
  a.basis = r.OneOf(n, "basis", f, {"request", "usage", "max"}, "request");
  a.idle = r.OneOf(n, "idle", f, {"share", "even", "keep"}, "share");
  a.idle_scope = r.OneOf(n, "idle_scope", f, {"cluster", "node"}, "cluster");
  a.shared_spread = r.OneOf(n, "shared_spread", f, {"weighted", "even"}, "weighted");
  if (const YAML::Node s = n["shared_namespaces"]; s.IsDefined() && r.Seq(s, f + ".shared_namespaces")) {
    for (size_t i = 0; i < s.size(); ++i) {
      if (!s[i].IsScalar() || !IsName(s[i].Scalar())) {
        r.Error(s[i].Mark(), Index(f + ".shared_namespaces", i), "expected a namespace name");
        continue;
      }
      a.shared_namespaces.push_back(s[i].Scalar());
    }
  }
  if (const YAML::Node c = n["fixed_monthly_costs"]; c.IsDefined() && r.Seq(c, f + ".fixed_monthly_costs")) {
    for (size_t i = 0; i < c.size(); ++i) {
      const std::string cf = Index(f + ".fixed_monthly_costs", i);
      if (!r.Map(c[i], cf, {"name", "amount"})) continue;
      FixedCost cost;
      cost.name = r.Text(c[i], "name", cf);
      if (cost.name.empty()) r.Error(c[i].Mark(), cf + ".name", "missing (required)");
      auto amount = r.NonNegative(c[i], "amount", cf, true, 6, "amount");
      if (cost.name.empty() || !amount) continue;
      cost.micro_per_month = *amount;
      a.fixed_monthly_costs.push_back(std::move(cost));
    }
  }
}

void ReadAllocation(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "allocation")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("allocation", i);
    if (!r.Map(n, f, {"team", "flavor", "guarantee", "borrowing_limit", "lending_limit", "weight", "demand"})) continue;
    AllocationRule rule;
    rule.field_lines = FieldLines(n);
    rule.line = n.Mark().line + 1;
    rule.team = r.Name(n, "team", f, true);
    rule.flavor = r.Name(n, "flavor", f, true);
    rule.guarantee_milli = r.NonNegative(n, "guarantee", f, false, 3, "guarantee").value_or(0);
    rule.borrowing_limit_milli = r.NonNegative(n, "borrowing_limit", f, false, 3, "borrowing limit");
    rule.lending_limit_milli = r.NonNegative(n, "lending_limit", f, false, 3, "lending limit");
    rule.weight = r.Weight(n, f).value_or(1);
    rule.demand_milli = r.NonNegative(n, "demand", f, false, 3, "demand");
    if (!rule.team.empty() && !rule.flavor.empty()) doc.allocation.push_back(std::move(rule));
  }
}

void ReadThroughput(YamlReader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "throughput")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("throughput", i);
    if (!r.Map(n, f, {"class", "flavor", "value"})) continue;
    Throughput t;
    t.field_lines = FieldLines(n);
    t.line = n.Mark().line + 1;
    t.workload_class = r.Name(n, "class", f, true);
    t.flavor = r.Name(n, "flavor", f, true);
    auto value = r.NonNegative(n, "value", f, true, 6, "throughput");
    if (t.workload_class.empty() || t.flavor.empty() || !value) continue;
    t.micro = *value;
    doc.throughput.push_back(std::move(t));
  }
}

void ReadDemandHeadroom(YamlReader& r, const YAML::Node& root, PolicyDocument& doc) {
  auto v = r.Scalar(root, "demand_headroom_percent", "", false);
  if (!v) return;
  auto parsed = ParseDecimal(*v, 0);
  if (!parsed.ok() || *parsed < 0 || *parsed > kMaxDemandHeadroomPercent) {
    r.Error(r.MarkOf(root, "demand_headroom_percent"), "demand_headroom_percent",
            absl::StrCat("\"", YamlReader::Shown(*v), "\" is not a headroom (expected a whole percent from 0 to ",
                         kMaxDemandHeadroomPercent, ")"));
    return;
  }
  doc.demand_headroom_percent = *parsed;
}

}  // namespace

ParsedPolicy ParsePolicy(absl::string_view text) {
  ParsedPolicy result;
  std::optional<YAML::Node> loaded = LoadYamlDocument(text, kMaxPolicyBytes, &result.errors);
  if (!loaded) return result;
  const YAML::Node root = *loaded;
  std::vector<PolicyError> errors;
  YamlReader r(&errors);
  try {
    if (r.Map(root, "",
              {"version", "currency", "teams", "namespaces", "team_label_keys", "trusted_pods", "flavors", "prices",
               "attribution", "allocation", "throughput", "demand_headroom_percent", "insights", "budgets"})) {
      auto version = r.Scalar(root, "version", "", true);
      if (version && *version != std::to_string(kSchemaVersion)) {
        r.Error(r.MarkOf(root, "version"), "version",
                absl::StrCat("\"", *version, "\" is not a known schema version (expected ", kSchemaVersion, ")"));
      }
      if (auto currency = r.Scalar(root, "currency", "", false)) {
        if (currency->size() != 3 ||
            !std::all_of(currency->begin(), currency->end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
          r.Error(r.MarkOf(root, "currency"), "currency", "expected an ISO 4217 code such as USD");
        } else {
          result.document.currency = *currency;
        }
      }
      ReadDemandHeadroom(r, root, result.document);
      if (root["teams"].IsDefined()) ReadTeams(r, root["teams"], result.document);
      if (root["namespaces"].IsDefined()) ReadNamespaces(r, root["namespaces"], result.document);
      if (root["team_label_keys"].IsDefined()) ReadLabelKeys(r, root["team_label_keys"], result.document);
      if (root["trusted_pods"].IsDefined()) ReadTrustedPods(r, root["trusted_pods"], result.document);
      if (root["flavors"].IsDefined()) ReadFlavors(r, root["flavors"], result.document);
      if (root["prices"].IsDefined()) ReadPrices(r, root["prices"], result.document);
      if (root["attribution"].IsDefined()) ReadAttribution(r, root["attribution"], result.document);
      if (root["allocation"].IsDefined()) ReadAllocation(r, root["allocation"], result.document);
      if (root["throughput"].IsDefined()) ReadThroughput(r, root["throughput"], result.document);
      if (root["insights"].IsDefined()) ReadInsights(r, root["insights"], result.document);
      if (root["budgets"].IsDefined()) ReadBudgets(r, root["budgets"], result.document);
    }
  } catch (const YAML::Exception& e) {
    r.Error(e.mark, "document", absl::StrCat("unreadable: ", e.msg));
  }
  // Cross-checks run even after reading errors, so one pass shows everything;
  // entries that could not be read at all are left out of them.
  result.errors = std::move(errors);
  for (auto& e : ValidatePolicy(result.document)) result.errors.push_back(std::move(e));
  std::stable_sort(result.errors.begin(), result.errors.end(),
                   [](const PolicyError& a, const PolicyError& b) { return a.line < b.line; });
  return result;
}

std::string FormatPolicyError(absl::string_view source, const PolicyError& error) {
  std::string out;
  if (!source.empty()) absl::StrAppend(&out, source, ":");
  if (error.line > 0) absl::StrAppend(&out, error.line, ":");
  if (error.line > 0 && error.column > 0) absl::StrAppend(&out, error.column, ":");
  if (!out.empty()) out += " ";
  absl::StrAppend(&out, error.field.empty() ? "document" : error.field, ": ", error.message);
  return out;
}

std::string FormatPolicyErrors(absl::string_view source, const std::vector<PolicyError>& errors) {
  std::string out;
  for (const auto& e : errors) absl::StrAppend(&out, FormatPolicyError(source, e), "\n");
  return out;
}

}  // namespace fleetcap::policy
