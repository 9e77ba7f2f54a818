#include "optimizer/whatif/scenario_parser.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "policy/text_rules.h"
#include "policy/yaml_reader.h"

namespace fleetcap::whatif {
namespace {

using policy::Index;
using policy::YamlReader;

// The sections of a policy a patch may replace (not its version or currency:
// a scenario compares money in one currency).
constexpr std::initializer_list<const char*> kPatchableSections = {"teams",        "namespaces", "team_label_keys",
                                                                   "trusted_pods", "flavors",    "prices",
                                                                   "attribution",  "allocation", "throughput"};

int LineOf(const YAML::Node& n) { return n.Mark().line + 1; }

// A list of at most kMaxScenarioEntries.
bool BoundedList(YamlReader& r, const YAML::Node& node, const std::string& field) {
  if (!r.Seq(node, field)) return false;
  if (node.size() > kMaxScenarioEntries) {
    r.Error(node.Mark(), field, absl::StrCat(node.size(), " entries, expected at most ", kMaxScenarioEntries));
    return false;
  }
  return true;
}

// A positive decimal up to `max` (both in units of 10^-decimals).
std::optional<int64_t> Positive(YamlReader& r, const YAML::Node& map, const char* key, const std::string& field,
                                int decimals, int64_t max, const std::string& what) {
  auto v = r.NonNegative(map, key, field, false, decimals, what);
  if (!v) return std::nullopt;
  if (*v == 0 || *v > max) {
    r.Error(YamlReader::MarkOf(map, key), absl::StrCat(field, ".", key),
            absl::StrCat("\"", YamlReader::Shown(map[key].Scalar()), "\" is outside the range of a ", what,
                         " (expected more than 0 and at most ", policy::FormatDecimal(max, decimals), ")"));
    return std::nullopt;
  }
  return v;
}

void ReadCapacity(YamlReader& r, const YAML::Node& node, ScenarioDocument& doc) {
  if (!BoundedList(r, node, "capacity")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("capacity", i);
    if (!r.Map(n, f, {"flavor", "add", "remove", "from"})) continue;
    CapacityChange change;
    change.line = LineOf(n);
    change.flavor = r.Name(n, "flavor", f, true);
    auto from = r.Time(n, "from", f, true);
    const bool has_add = n["add"].IsDefined(), has_remove = n["remove"].IsDefined();
    if (has_add == has_remove) {
      r.Error(n.Mark(), f, "expected exactly one of add or remove (a number of devices)");
      continue;
    }
    auto devices = Positive(r, n, has_add ? "add" : "remove", f, 3, kMaxCapacityChangeMilli, "number of devices");
    if (change.flavor.empty() || !from || !devices) continue;
    change.from = *from;
    change.delta_milli = has_add ? *devices : -*devices;
    doc.capacity.push_back(std::move(change));
  }
}

void ReadDemand(YamlReader& r, const YAML::Node& node, ScenarioDocument& doc) {
  if (!BoundedList(r, node, "demand")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("demand", i);
    if (!r.Map(n, f, {"team", "flavor", "factor"})) continue;
    DemandScale scale;
    scale.line = LineOf(n);
    scale.team = r.Name(n, "team", f, true);
    scale.flavor = r.Name(n, "flavor", f, false);
    auto factor = r.NonNegative(n, "factor", f, true, 6, "factor");
    if (factor && *factor > kMaxFactorMicro) {
      r.Error(YamlReader::MarkOf(n, "factor"), f + ".factor",
              absl::StrCat("\"", YamlReader::Shown(n["factor"].Scalar()), "\" is too large (expected at most ",
                           policy::FormatDecimal(kMaxFactorMicro, 6), ")"));
      continue;
    }
    if (scale.team.empty() || !factor) continue;
    scale.factor_micro = *factor;
    doc.demand.push_back(std::move(scale));
  }
}

void ReadPrices(YamlReader& r, const YAML::Node& node, ScenarioDocument& doc) {
  if (!BoundedList(r, node, "prices")) return;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("prices", i);
    if (!r.Map(n, f, {"flavor", "per_device_hour", "from"})) continue;
    PriceChange change;
    change.line = LineOf(n);
    change.flavor = r.Name(n, "flavor", f, true);
    auto from = r.Time(n, "from", f, true);
    auto price = r.NonNegative(n, "per_device_hour", f, true, 6, "price");
    if (price && *price > kMaxPriceMicro) {
      r.Error(YamlReader::MarkOf(n, "per_device_hour"), f + ".per_device_hour",
              absl::StrCat("\"", YamlReader::Shown(n["per_device_hour"].Scalar()), "\" is too large (expected at most ",
                           policy::FormatDecimal(kMaxPriceMicro, 6), ")"));
      continue;
    }
    if (change.flavor.empty() || !from || !price) continue;
    change.from = *from;
    change.micro_per_device_hour = *price;
    doc.prices.push_back(std::move(change));
  }
}

void ReadPolicy(YamlReader& r, const YAML::Node& n, ScenarioDocument& doc) {
  if (!r.Map(n, "policy", {"version", "patch"})) return;
  PolicyChange change;
  change.line = LineOf(n);
  const bool has_version = n["version"].IsDefined(), has_patch = n["patch"].IsDefined();
  if (has_version == has_patch) {
    r.Error(n.Mark(), "policy", "expected exactly one of version (a stored policy version) or patch");
    return;
  }
  if (has_version) {
    auto v = r.Scalar(n, "version", "policy", true);
    if (!v) return;
    auto parsed = policy::ParseDecimal(*v, 0);
    if (!parsed.ok() || *parsed < 1 || *parsed > 2147483647) {
      r.Error(YamlReader::MarkOf(n, "version"), "policy.version",
              absl::StrCat("\"", YamlReader::Shown(*v), "\" is not a policy version (expected a whole number from 1)"));
      return;
    }
    change.version = static_cast<int32_t>(*parsed);
  } else {
    const YAML::Node patch = n["patch"];
    if (!r.Map(patch, "policy.patch", kPatchableSections)) return;
    if (patch.size() == 0) {
      r.Error(patch.Mark(), "policy.patch", "empty (expected at least one policy section to replace)");
      return;
    }
    change.patch = patch;
  }
  doc.policy = std::move(change);
}

}  // namespace

ParsedScenario ParseScenario(absl::string_view text) {
  ParsedScenario result;
  std::optional<YAML::Node> loaded = policy::LoadYamlDocument(text, kMaxScenarioBytes, &result.errors);
  if (!loaded) return result;
  const YAML::Node root = *loaded;
  std::vector<policy::PolicyError> errors;
  YamlReader r(&errors);
  try {
    if (r.Map(root, "", {"version", "description", "capacity", "demand", "prices", "policy"})) {
      auto version = r.Scalar(root, "version", "", true);
      if (version && *version != std::to_string(kScenarioSchemaVersion)) {
        r.Error(YamlReader::MarkOf(root, "version"), "version",
                absl::StrCat("\"", YamlReader::Shown(*version), "\" is not a known scenario version (expected ",
                             kScenarioSchemaVersion, ")"));
      }
      result.document.description = r.Text(root, "description", "");
      if (root["capacity"].IsDefined()) ReadCapacity(r, root["capacity"], result.document);
      if (root["demand"].IsDefined()) ReadDemand(r, root["demand"], result.document);
      if (root["prices"].IsDefined()) ReadPrices(r, root["prices"], result.document);
      if (root["policy"].IsDefined()) ReadPolicy(r, root["policy"], result.document);
    }
  } catch (const YAML::Exception& e) {
    r.Error(e.mark, "document", absl::StrCat("unreadable: ", e.msg));
  }
  result.errors = std::move(errors);
  std::stable_sort(result.errors.begin(), result.errors.end(),
                   [](const policy::PolicyError& a, const policy::PolicyError& b) { return a.line < b.line; });
  return result;
}

absl::Status ScenarioErrors(const std::vector<policy::PolicyError>& errors) {
  if (errors.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StripSuffix(policy::FormatPolicyErrors("scenario", errors), "\n"));
}

}  // namespace fleetcap::whatif
