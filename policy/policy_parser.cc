#include "policy/policy_parser.h"

#include <algorithm>
#include <initializer_list>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "policy/policy_validation.h"
#include "policy/text_rules.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::policy {
namespace {

// Reads YAML nodes into the document, collecting errors instead of stopping.
class Reader {
 public:
  std::vector<PolicyError> errors;

  void Error(const YAML::Mark& mark, const std::string& field, const std::string& message) {
    errors.push_back({mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, field, message});
  }

  // A map whose keys are all in `allowed`, each once; otherwise an error per
  // unknown key and per repeat (yaml-cpp would silently use the first).
  bool Map(const YAML::Node& n, const std::string& field, std::initializer_list<const char*> allowed) {
    if (!n.IsMap()) {
      Error(n.Mark(), field, "expected a mapping");
      return false;
    }
    std::map<std::string, int> first_line;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
      const int line = it->first.Mark().line + 1;
      if (auto [seen, inserted] = first_line.emplace(key, line); !inserted) {
        Error(it->first.Mark(), field.empty() ? key : absl::StrCat(field, ".", key),
              absl::StrCat("key \"", Shown(key), "\" appears at lines ", seen->second, " and ", line,
                           " (expected each key once)"));
        continue;
      }
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
        Error(it->first.Mark(), field.empty() ? key : absl::StrCat(field, ".", key),
              absl::StrCat("unknown key \"", key, "\" (expected one of ", absl::StrJoin(allowed, ", "), ")"));
      }
    }
    return true;
  }

  bool Seq(const YAML::Node& n, const std::string& field) {
    if (!n.IsSequence()) {
      Error(n.Mark(), field, "expected a list");
      return false;
    }
    return true;
  }

  // The scalar text at map[key]; nullopt (with an error when required) if absent or not a scalar.
  std::optional<std::string> Scalar(const YAML::Node& map, const char* key, const std::string& field, bool required) {
    const YAML::Node v = map[key];
    const std::string path = absl::StrCat(field, field.empty() ? "" : ".", key);
    if (!v.IsDefined() || v.IsNull()) {
      if (required) Error(map.Mark(), path, "missing (required)");
      return std::nullopt;
    }
    if (!v.IsScalar()) {
      Error(v.Mark(), path, "expected a single value");
      return std::nullopt;
    }
    return v.Scalar();
  }

  YAML::Mark MarkOf(const YAML::Node& map, const char* key) {
    const YAML::Node v = map[key];
    return v.IsDefined() ? v.Mark() : map.Mark();
  }

  std::string Name(const YAML::Node& map, const char* key, const std::string& field, bool required,
                   const std::string& fallback = "") {
    auto v = Scalar(map, key, field, required);
    if (!v) return fallback;
    if (!IsName(*v)) {
      Error(MarkOf(map, key), absl::StrCat(field, ".", key),
            absl::StrCat("\"", Shown(*v),
                         "\" is not a name (expected 1-63 letters, digits, '.', '_' or '-', "
                         "starting with a letter or digit)"));
      return fallback;
    }
    return *v;
  }

  std::string Glob(const YAML::Node& map, const char* key, const std::string& field, const std::string& fallback) {
    auto v = Scalar(map, key, field, false);
    if (!v) return fallback;
    if (!IsGlob(*v)) {
      Error(MarkOf(map, key), absl::StrCat(field, ".", key),
            absl::StrCat("\"", Shown(*v),
                         "\" is not a pattern (expected 1-63 letters, digits, '.', '_', '-', "
                         "'*' or '?')"));
      return fallback;
    }
    return *v;
  }

  std::string OneOf(const YAML::Node& map, const char* key, const std::string& field,
                    std::initializer_list<const char*> values, const std::string& fallback) {
    auto v = Scalar(map, key, field, false);
    if (!v) return fallback;
    if (std::none_of(values.begin(), values.end(), [&](const char* a) { return *v == a; })) {
      Error(MarkOf(map, key), absl::StrCat(field, ".", key),
            absl::StrCat("\"", Shown(*v), "\" is not one of ", absl::StrJoin(values, ", ")));
      return fallback;
    }
    return *v;
  }

  // A decimal with `decimals` digits; negative values are errors (`what` names the quantity).
  std::optional<int64_t> NonNegative(const YAML::Node& map, const char* key, const std::string& field, bool required,
                                     int decimals, const std::string& what) {
    auto v = Scalar(map, key, field, required);
    if (!v) return std::nullopt;
    const std::string path = absl::StrCat(field, ".", key);
    auto parsed = ParseDecimal(*v, decimals);
    if (!parsed.ok()) {
      Error(MarkOf(map, key), path, std::string(parsed.status().message()));
      return std::nullopt;
    }
    if (*parsed < 0) {
      Error(MarkOf(map, key), path, absl::StrCat("negative ", what, " ", *v, " (expected 0 or more)"));
      return std::nullopt;
    }
    return *parsed;
  }

  std::optional<int64_t> Weight(const YAML::Node& map, const std::string& field) {
    auto v = Scalar(map, "weight", field, false);
    if (!v) return std::nullopt;
    auto parsed = ParseDecimal(*v, 0);
    if (!parsed.ok() || *parsed <= 0 || *parsed > 1000000) {
      Error(MarkOf(map, "weight"), field + ".weight",
            absl::StrCat("\"", Shown(*v), "\" is not a weight (expected a whole number from 1 to 1000000)"));
      return std::nullopt;
    }
    return *parsed;
  }

  std::optional<absl::Time> Time(const YAML::Node& map, const char* key, const std::string& field, bool required) {
    auto v = Scalar(map, key, field, required);
    if (!v) return std::nullopt;
    auto t = ParseRfc3339(absl::StrCat(field, ".", key), *v);
    if (!t.ok()) {
      Error(MarkOf(map, key), absl::StrCat(field, ".", key),
            absl::StrCat("\"", Shown(*v), "\" is not an RFC 3339 timestamp (expected e.g. 2026-01-01T00:00:00Z)"));
      return std::nullopt;
    }
    return *t;
  }

  std::optional<bool> Bool(const YAML::Node& map, const char* key, const std::string& field) {
    auto v = Scalar(map, key, field, false);
    if (!v) return std::nullopt;
    if (*v == "true") return true;
    if (*v == "false") return false;
    Error(MarkOf(map, key), absl::StrCat(field, ".", key), absl::StrCat("\"", Shown(*v), "\" is not true or false"));
    return std::nullopt;
  }

  std::string Text(const YAML::Node& map, const char* key, const std::string& field) {
    auto v = Scalar(map, key, field, false);
    if (!v) return "";
    const std::string path = absl::StrCat(field, ".", key);
    if (auto status = CheckFreeText(path, *v, 256, false); !status.ok()) {
      Error(MarkOf(map, key), path, std::string(status.message().substr(path.size() + 2)));
      return "";
    }
    return *v;
  }

  // Error messages quote input; long input is cut so a 1 MB name cannot make a 1 MB message.
  static std::string Shown(const std::string& v) {
    if (v.size() <= 80) return v;
    return absl::StrCat(v.substr(0, 40), "...(", v.size(), " bytes)");
  }
};

std::string Index(const std::string& list, size_t i) { return absl::StrCat(list, "[", i, "]"); }

// Where each key's value sits, so later checks can point at the field itself.
std::map<std::string, int> FieldLines(const YAML::Node& map) {
  std::map<std::string, int> lines;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar()) lines[it->first.Scalar()] = it->second.Mark().line + 1;
  }
  return lines;
}

void ReadTeams(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
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

void ReadNamespaces(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
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

void ReadLabelKeys(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
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

void ReadTrustedPods(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
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

void ReadFlavors(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "flavors")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("flavors", i);
    if (!r.Map(n, f, {"name", "model", "pool", "cluster", "capacity"})) continue;
    Flavor flavor;
    flavor.field_lines = FieldLines(n);
    flavor.line = n.Mark().line + 1;
    flavor.name = r.Name(n, "name", f, true);
    flavor.model = r.Name(n, "model", f, true);
    flavor.pool = r.Name(n, "pool", f, false);
    flavor.cluster = r.Glob(n, "cluster", f, "*");
    flavor.capacity_milli = r.NonNegative(n, "capacity", f, true, 3, "capacity").value_or(0);
    if (!flavor.name.empty()) doc.flavors.push_back(std::move(flavor));
  }
}

void ReadPrices(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
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

void ReadAttribution(Reader& r, const YAML::Node& n, PolicyDocument& doc) {
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

void ReadAllocation(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
  if (!r.Seq(node, "allocation")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("allocation", i);
    if (!r.Map(n, f, {"team", "flavor", "guarantee", "borrowing_limit", "lending_limit", "weight"})) continue;
    AllocationRule rule;
    rule.field_lines = FieldLines(n);
    rule.line = n.Mark().line + 1;
    rule.team = r.Name(n, "team", f, true);
    rule.flavor = r.Name(n, "flavor", f, true);
    rule.guarantee_milli = r.NonNegative(n, "guarantee", f, false, 3, "guarantee").value_or(0);
    rule.borrowing_limit_milli = r.NonNegative(n, "borrowing_limit", f, false, 3, "borrowing limit");
    rule.lending_limit_milli = r.NonNegative(n, "lending_limit", f, false, 3, "lending limit");
    rule.weight = r.Weight(n, f).value_or(1);
    if (!rule.team.empty() && !rule.flavor.empty()) doc.allocation.push_back(std::move(rule));
  }
}

void ReadThroughput(Reader& r, const YAML::Node& node, PolicyDocument& doc) {
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

}  // namespace

ParsedPolicy ParsePolicy(absl::string_view text) {
  ParsedPolicy result;
  if (text.size() > kMaxPolicyBytes) {
    result.errors.push_back(
        {0, 0, "document", absl::StrCat(text.size(), " bytes, expected at most ", kMaxPolicyBytes)});
    return result;
  }
  if (!IsValidUtf8(text) || text.find('\0') != absl::string_view::npos) {
    result.errors.push_back({0, 0, "document", "not valid UTF-8 text (NUL bytes and broken sequences are refused)"});
    return result;
  }
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    result.errors.push_back({e.mark.line + 1, e.mark.column + 1, "document", absl::StrCat("not valid YAML: ", e.msg)});
    return result;
  }
  Reader r;
  try {
    if (r.Map(root, "",
              {"version", "currency", "teams", "namespaces", "team_label_keys", "trusted_pods", "flavors", "prices",
               "attribution", "allocation", "throughput"})) {
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
      if (root["teams"].IsDefined()) ReadTeams(r, root["teams"], result.document);
      if (root["namespaces"].IsDefined()) ReadNamespaces(r, root["namespaces"], result.document);
      if (root["team_label_keys"].IsDefined()) ReadLabelKeys(r, root["team_label_keys"], result.document);
      if (root["trusted_pods"].IsDefined()) ReadTrustedPods(r, root["trusted_pods"], result.document);
      if (root["flavors"].IsDefined()) ReadFlavors(r, root["flavors"], result.document);
      if (root["prices"].IsDefined()) ReadPrices(r, root["prices"], result.document);
      if (root["attribution"].IsDefined()) ReadAttribution(r, root["attribution"], result.document);
      if (root["allocation"].IsDefined()) ReadAllocation(r, root["allocation"], result.document);
      if (root["throughput"].IsDefined()) ReadThroughput(r, root["throughput"], result.document);
    }
  } catch (const YAML::Exception& e) {
    r.Error(e.mark, "document", absl::StrCat("unreadable: ", e.msg));
  }
  // Cross-checks run even after reading errors, so one pass shows everything;
  // entries that could not be read at all are left out of them.
  result.errors = std::move(r.errors);
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
