#include "policy/yaml_reader.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "common/yaml_nesting.h"
#include "policy/policy_parser.h"
#include "policy/text_rules.h"

namespace fleetcap::policy {

void YamlReader::Error(const YAML::Mark& mark, const std::string& field, const std::string& message) {
  errors->push_back({mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, field, message});
}

bool YamlReader::Map(const YAML::Node& n, const std::string& field, std::initializer_list<const char*> allowed) {
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
            absl::StrCat("unknown key \"", Shown(key), "\" (expected one of ", absl::StrJoin(allowed, ", "), ")"));
    }
  }
  return true;
}

bool YamlReader::Seq(const YAML::Node& n, const std::string& field) {
  if (!n.IsSequence()) {
    Error(n.Mark(), field, "expected a list");
    return false;
  }
  return true;
}

std::optional<std::string> YamlReader::Scalar(const YAML::Node& map, const char* key, const std::string& field,
                                              bool required) {
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

YAML::Mark YamlReader::MarkOf(const YAML::Node& map, const char* key) {
  const YAML::Node v = map[key];
  return v.IsDefined() ? v.Mark() : map.Mark();
}

std::string YamlReader::Name(const YAML::Node& map, const char* key, const std::string& field, bool required,
                             const std::string& fallback) {
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

std::string YamlReader::Glob(const YAML::Node& map, const char* key, const std::string& field,
                             const std::string& fallback) {
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

std::string YamlReader::OneOf(const YAML::Node& map, const char* key, const std::string& field,
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

std::optional<int64_t> YamlReader::NonNegative(const YAML::Node& map, const char* key, const std::string& field,
                                               bool required, int decimals, const std::string& what) {
  auto v = Scalar(map, key, field, required);
  if (!v) return std::nullopt;
  const std::string path = absl::StrCat(field, ".", key);
  auto parsed = ParseDecimal(*v, decimals);
  if (!parsed.ok()) {
    Error(MarkOf(map, key), path, std::string(parsed.status().message()));
    return std::nullopt;
  }
  if (*parsed < 0) {
    Error(MarkOf(map, key), path, absl::StrCat("negative ", what, " ", Shown(*v), " (expected 0 or more)"));
    return std::nullopt;
  }
  return *parsed;
}

std::optional<int64_t> YamlReader::Weight(const YAML::Node& map, const std::string& field) {
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

std::optional<absl::Time> YamlReader::Time(const YAML::Node& map, const char* key, const std::string& field,
                                           bool required) {
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

std::optional<bool> YamlReader::Bool(const YAML::Node& map, const char* key, const std::string& field) {
  auto v = Scalar(map, key, field, false);
  if (!v) return std::nullopt;
  if (*v == "true") return true;
  if (*v == "false") return false;
  Error(MarkOf(map, key), absl::StrCat(field, ".", key), absl::StrCat("\"", Shown(*v), "\" is not true or false"));
  return std::nullopt;
}

std::string YamlReader::Text(const YAML::Node& map, const char* key, const std::string& field) {
  auto v = Scalar(map, key, field, false);
  if (!v) return "";
  const std::string path = field.empty() ? std::string(key) : absl::StrCat(field, ".", key);
  if (auto status = CheckFreeText(path, *v, 256, false); !status.ok()) {
    Error(MarkOf(map, key), path, std::string(status.message().substr(path.size() + 2)));
    return "";
  }
  return *v;
}

std::string YamlReader::Shown(const std::string& v) {
  if (v.size() <= 80) return v;
  return absl::StrCat(v.substr(0, 40), "...(", v.size(), " bytes)");
}

std::string Index(const std::string& list, size_t i) { return absl::StrCat(list, "[", i, "]"); }

std::map<std::string, int> FieldLines(const YAML::Node& map) {
  std::map<std::string, int> lines;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar()) lines[it->first.Scalar()] = it->second.Mark().line + 1;
  }
  return lines;
}

std::optional<YAML::Node> LoadYamlDocument(absl::string_view text, size_t max_bytes, std::vector<PolicyError>* errors) {
  if (text.size() > max_bytes) {
    errors->push_back({0, 0, "document", absl::StrCat(text.size(), " bytes, expected at most ", max_bytes)});
    return std::nullopt;
  }
  if (!IsValidUtf8(text) || text.find('\0') != absl::string_view::npos) {
    errors->push_back({0, 0, "document", "not valid UTF-8 text (NUL bytes and broken sequences are refused)"});
    return std::nullopt;
  }
  // Before the load, whose parser recurses once per level (docs/security.md, "Nesting").
  if (auto problem = CheckYamlNesting(text)) {
    errors->push_back({problem->line, problem->column, "document", problem->message});
    return std::nullopt;
  }
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    errors->push_back({e.mark.line + 1, e.mark.column + 1, "document", absl::StrCat("not valid YAML: ", e.msg)});
    return std::nullopt;
  }
}

}  // namespace fleetcap::policy
