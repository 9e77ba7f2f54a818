#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/yaml_nesting.h"
#include "optimizer/allocation/allocation_problem.h"
#include "optimizer/allocation/demand_document.h"
#include "policy/text_rules.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::allocation {
namespace {

using policy::PolicyError;

class Reader {
 public:
  std::vector<PolicyError> errors;

  void Error(const YAML::Mark& mark, const std::string& field, const std::string& message) {
    errors.push_back({mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, field, message});
  }

  // A mapping whose keys are each in `allowed`, once.
  bool Map(const YAML::Node& n, const std::string& field, std::initializer_list<const char*> allowed) {
    if (!n.IsMap()) {
      Error(n.Mark(), field, "expected a mapping");
      return false;
    }
    std::set<std::string> seen;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
      const std::string path = field.empty() ? key : absl::StrCat(field, ".", key);
      if (!seen.insert(key).second) {
        Error(it->first.Mark(), path, absl::StrCat("key \"", Shown(key), "\" appears twice (expected each key once)"));
      } else if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
        Error(it->first.Mark(), path,
              absl::StrCat("unknown key \"", Shown(key), "\" (expected one of ", absl::StrJoin(allowed, ", "), ")"));
      }
    }
    return true;
  }

  std::optional<std::string> Scalar(const YAML::Node& map, const char* key, const std::string& field) {
    const YAML::Node v = map[key];
    const std::string path = absl::StrCat(field, ".", key);
    if (!v.IsDefined() || v.IsNull()) {
      Error(map.Mark(), path, "missing (required)");
      return std::nullopt;
    }
    if (!v.IsScalar()) {
      Error(v.Mark(), path, "expected a single value");
      return std::nullopt;
    }
    return v.Scalar();
  }

  std::string Name(const YAML::Node& map, const char* key, const std::string& field) {
    auto v = Scalar(map, key, field);
    if (!v) return "";
    if (!policy::IsName(*v)) {
      Error(map[key].Mark(), absl::StrCat(field, ".", key),
            absl::StrCat("\"", Shown(*v), "\" is not a name (expected 1-63 letters, digits, '.', '_' or '-')"));
      return "";
    }
    return *v;
  }

  // Devices as a decimal with at most 3 digits after the point, 0..kMaxMilli.
  std::optional<int64_t> Devices(const YAML::Node& map, const std::string& field) {
    auto v = Scalar(map, "devices", field);
    if (!v) return std::nullopt;
    const std::string path = field + ".devices";
    auto parsed = policy::ParseDecimal(*v, 3);
    if (!parsed.ok()) {
      Error(map["devices"].Mark(), path, std::string(parsed.status().message()));
      return std::nullopt;
    }
    if (*parsed < 0 || *parsed > kMaxMilli) {
      Error(map["devices"].Mark(), path,
            absl::StrCat(Shown(*v), " is out of range (expected 0 to ", policy::FormatDecimal(kMaxMilli, 3), ")"));
      return std::nullopt;
    }
    return *parsed;
  }

  static std::string Shown(const std::string& v) {
    if (v.size() <= 80) return v;
    return absl::StrCat(v.substr(0, 40), "...(", v.size(), " bytes)");
  }
};

std::string Index(const char* list, size_t i) { return absl::StrCat(list, "[", i, "]"); }

void ReadDemand(Reader& r, const YAML::Node& node, DemandDocument& doc) {
  std::map<std::pair<std::string, std::string>, int> first;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("demand", i);
    if (!r.Map(n, f, {"team", "flavor", "devices"})) continue;
    DeclaredDemand d{r.Name(n, "team", f), r.Name(n, "flavor", f), 0, n.Mark().line + 1};
    std::optional<int64_t> milli = r.Devices(n, f);
    if (d.team.empty() || d.flavor.empty() || !milli) continue;
    d.milli = *milli;
    if (auto [it, inserted] = first.emplace(std::make_pair(d.team, d.flavor), d.line); !inserted) {
      r.Error(n.Mark(), f,
              absl::StrCat("team ", d.team, " on flavor ", d.flavor, " is already given at line ", it->second,
                           " (expected one entry per team and flavor)"));
      continue;
    }
    doc.demand.push_back(std::move(d));
  }
}

void ReadCapacity(Reader& r, const YAML::Node& node, DemandDocument& doc) {
  std::map<std::string, int> first;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node n = node[i];
    const std::string f = Index("capacity", i);
    if (!r.Map(n, f, {"flavor", "devices"})) continue;
    DeclaredCapacity c{r.Name(n, "flavor", f), 0, n.Mark().line + 1};
    std::optional<int64_t> milli = r.Devices(n, f);
    if (c.flavor.empty() || !milli) continue;
    c.milli = *milli;
    if (auto [it, inserted] = first.emplace(c.flavor, c.line); !inserted) {
      r.Error(n.Mark(), f,
              absl::StrCat("flavor ", c.flavor, " is already given at line ", it->second,
                           " (expected one capacity per flavor)"));
      continue;
    }
    doc.capacity.push_back(std::move(c));
  }
}

}  // namespace

ParsedDemand ParseDemand(absl::string_view text) {
  ParsedDemand result;
  if (text.size() > kMaxDemandBytes) {
    result.errors.push_back(
        {0, 0, "document", absl::StrCat(text.size(), " bytes, expected at most ", kMaxDemandBytes)});
    return result;
  }
  if (!policy::IsValidUtf8(text) || text.find('\0') != absl::string_view::npos) {
    result.errors.push_back({0, 0, "document", "not valid UTF-8 text (NUL bytes and broken sequences are refused)"});
    return result;
  }
  // Before the load, whose parser recurses once per level (docs/security.md, "Nesting").
  if (auto problem = CheckYamlNesting(text)) {
    result.errors.push_back({problem->line, problem->column, "document", problem->message});
    return result;
  }
  Reader r;
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (r.Map(root, "", {"demand", "capacity"})) {
      if (!root["demand"].IsDefined()) r.Error(root.Mark(), "demand", "missing (required; a list, may be empty)");
      for (const char* key : {"demand", "capacity"}) {
        const YAML::Node list = root[key];
        if (!list.IsDefined()) continue;
        if (!list.IsSequence()) {
          r.Error(list.Mark(), key, "expected a list");
        } else if (std::string(key) == "demand") {
          ReadDemand(r, list, result.document);
        } else {
          ReadCapacity(r, list, result.document);
        }
      }
    }
  } catch (const YAML::Exception& e) {
    r.Error(e.mark, "document", absl::StrCat("not valid YAML: ", e.msg));
  }
  result.errors = std::move(r.errors);
  std::stable_sort(result.errors.begin(), result.errors.end(),
                   [](const PolicyError& a, const PolicyError& b) { return a.line < b.line; });
  return result;
}

}  // namespace fleetcap::allocation
