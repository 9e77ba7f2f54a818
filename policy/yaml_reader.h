#pragma once
// The strict reading of a small YAML document that the policy and the
// what-if scenario share: the document is bounded and must be UTF-8 text,
// maps accept only their listed keys, each once, and every value is checked
// for its type and range. Problems are collected, not thrown, each naming
// the line, the column and the field (a path like `prices[2].to`), so one
// pass reports everything wrong with a document.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::policy {

struct PolicyError;

class YamlReader {
 public:
  std::vector<PolicyError>* errors;

  explicit YamlReader(std::vector<PolicyError>* out) : errors(out) {}

  void Error(const YAML::Mark& mark, const std::string& field, const std::string& message);

  // A map whose keys are all in `allowed`, each once; otherwise an error per
  // unknown key and per repeat (yaml-cpp would silently use the first).
  bool Map(const YAML::Node& n, const std::string& field, std::initializer_list<const char*> allowed);
  bool Seq(const YAML::Node& n, const std::string& field);

  // The scalar text at map[key]; nullopt (with an error when required) if absent or not a scalar.
  std::optional<std::string> Scalar(const YAML::Node& map, const char* key, const std::string& field, bool required);
  // Where map[key] was written, else the map itself.
  static YAML::Mark MarkOf(const YAML::Node& map, const char* key);

  std::string Name(const YAML::Node& map, const char* key, const std::string& field, bool required,
                   const std::string& fallback = "");
  std::string Glob(const YAML::Node& map, const char* key, const std::string& field, const std::string& fallback);
  std::string OneOf(const YAML::Node& map, const char* key, const std::string& field,
                    std::initializer_list<const char*> values, const std::string& fallback);
  // A decimal with `decimals` digits; negative values are errors (`what` names the quantity).
  std::optional<int64_t> NonNegative(const YAML::Node& map, const char* key, const std::string& field, bool required,
                                     int decimals, const std::string& what);
  std::optional<int64_t> Weight(const YAML::Node& map, const std::string& field);
  std::optional<absl::Time> Time(const YAML::Node& map, const char* key, const std::string& field, bool required);
  std::optional<bool> Bool(const YAML::Node& map, const char* key, const std::string& field);
  std::string Text(const YAML::Node& map, const char* key, const std::string& field);

  // Error messages quote input; long input is cut so a 1 MB name cannot make a 1 MB message.
  static std::string Shown(const std::string& v);
};

// "list[i]".
std::string Index(const std::string& list, size_t i);

// Where each key's value sits, so later checks can point at the field itself.
std::map<std::string, int> FieldLines(const YAML::Node& map);

// `text` as YAML, when it is at most `max_bytes` of valid UTF-8 without NUL
// bytes, nests no deeper than kMaxNestingDepth (common/yaml_nesting.h) and
// parses; otherwise nullopt and one error about the "document".
std::optional<YAML::Node> LoadYamlDocument(absl::string_view text, size_t max_bytes, std::vector<PolicyError>* errors);

}  // namespace fleetcap::policy
