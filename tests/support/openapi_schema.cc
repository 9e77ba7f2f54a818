#include "tests/support/openapi_schema.h"

#include <regex>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace fleetcap::testing {
namespace {

bool IsPlain(const YAML::Node& n) { return n.IsScalar() && n.Tag() == "?"; }

bool IsInteger(const YAML::Node& n) {
  static const std::regex kInt("[-+]?[0-9]+");
  return IsPlain(n) && std::regex_match(n.Scalar(), kInt);
}
bool IsNumber(const YAML::Node& n) {
  static const std::regex kNumber("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  return IsPlain(n) && std::regex_match(n.Scalar(), kNumber);
}
bool IsBoolean(const YAML::Node& n) { return IsPlain(n) && (n.Scalar() == "true" || n.Scalar() == "false"); }
// A string: quoted, or plain and not read as another type by YAML 1.2's core schema.
bool IsString(const YAML::Node& n) {
  if (!n.IsScalar()) return false;
  if (!IsPlain(n)) return true;
  static const std::set<std::string> kOther = {"null", "~", "true", "false", ""};
  return !IsNumber(n) && kOther.count(n.Scalar()) == 0;
}

std::string TypeOf(const YAML::Node& n) {
  if (n.IsMap()) return "object";
  if (n.IsSequence()) return "array";
  if (n.IsNull()) return "null";
  if (IsInteger(n)) return "integer";
  if (IsNumber(n)) return "number";
  if (IsBoolean(n)) return "boolean";
  return "string";
}

bool HasType(const YAML::Node& n, const std::string& type) {
  if (type == "object") return n.IsMap();
  if (type == "array") return n.IsSequence();
  if (type == "integer") return IsInteger(n);
  if (type == "number") return IsNumber(n);
  if (type == "boolean") return IsBoolean(n);
  if (type == "string") return IsString(n);
  return false;
}

class Checker {
 public:
  std::vector<std::string> problems;

  void Check(const YAML::Node& schema, const YAML::Node& value, const std::string& path) {
    if (schema["x-kubernetes-int-or-string"] && schema["x-kubernetes-int-or-string"].as<bool>()) {
      if (!IsInteger(value) && !IsString(value)) {
        return Problem(path, absl::StrCat("expected an integer or a string, got ", TypeOf(value)));
      }
    } else if (schema["type"] && !HasType(value, schema["type"].Scalar())) {
      return Problem(path, absl::StrCat("expected ", schema["type"].Scalar(), ", got ", TypeOf(value)));
    }
    if (schema["anyOf"]) {
      bool any = false;
      for (const YAML::Node& branch : schema["anyOf"]) {
        Checker inner;
        inner.Check(branch, value, path);
        any = any || inner.problems.empty();
      }
      if (!any) Problem(path, "matches none of anyOf");
    }
    if (schema["enum"]) {
      bool found = false;
      for (const YAML::Node& e : schema["enum"]) found = found || (value.IsScalar() && e.Scalar() == value.Scalar());
      if (!found) Problem(path, absl::StrCat("\"", value.IsScalar() ? value.Scalar() : "", "\" is not in the enum"));
    }
    if (IsString(value)) CheckString(schema, value.Scalar(), path);
    if (IsNumber(value) && schema["minimum"] && std::stod(value.Scalar()) < schema["minimum"].as<double>()) {
      Problem(path, absl::StrCat(value.Scalar(), " is below the minimum ", schema["minimum"].Scalar()));
    }
    if (value.IsMap()) CheckObject(schema, value, path);
    if (value.IsSequence()) CheckArray(schema, value, path);
  }

 private:
  void Problem(const std::string& path, const std::string& what) { problems.push_back(absl::StrCat(path, ": ", what)); }

  void CheckString(const YAML::Node& schema, const std::string& s, const std::string& path) {
    if (schema["pattern"] && !std::regex_search(s, std::regex(schema["pattern"].Scalar()))) {
      Problem(path, absl::StrCat("\"", s, "\" does not match ", schema["pattern"].Scalar()));
    }
    if (schema["maxLength"] && s.size() > schema["maxLength"].as<size_t>()) {
      Problem(path, absl::StrCat("longer than ", schema["maxLength"].Scalar()));
    }
    if (schema["minLength"] && s.size() < schema["minLength"].as<size_t>()) {
      Problem(path, absl::StrCat("shorter than ", schema["minLength"].Scalar()));
    }
  }

  void CheckObject(const YAML::Node& schema, const YAML::Node& value, const std::string& path) {
    if (schema["required"]) {
      for (const YAML::Node& r : schema["required"]) {
        if (!value[r.Scalar()]) Problem(path, absl::StrCat("missing required field ", r.Scalar()));
      }
    }
    if (schema["maxProperties"] && value.size() > schema["maxProperties"].as<size_t>()) {
      Problem(path, absl::StrCat("more than ", schema["maxProperties"].Scalar(), " properties"));
    }
    const YAML::Node properties = schema["properties"];
    const YAML::Node additional = schema["additionalProperties"];
    for (const auto& kv : value) {
      const std::string key = kv.first.Scalar();
      const std::string child = absl::StrCat(path, ".", key);
      if (properties && properties[key]) {
        Check(properties[key], kv.second, child);
      } else if (additional && additional.IsMap()) {
        Check(additional, kv.second, child);
      } else if (!(additional && additional.IsScalar() && additional.as<bool>()) &&
                 !schema["x-kubernetes-preserve-unknown-fields"]) {
        // An object with neither properties nor additionalProperties is
        // free-form only when the schema says so (metadata is `type: object`).
        if (properties || additional) Problem(child, "unknown field");
      }
    }
  }

  void CheckArray(const YAML::Node& schema, const YAML::Node& value, const std::string& path) {
    if (schema["maxItems"] && value.size() > schema["maxItems"].as<size_t>()) {
      Problem(path, absl::StrCat(value.size(), " items, more than ", schema["maxItems"].Scalar()));
    }
    if (schema["minItems"] && value.size() < schema["minItems"].as<size_t>()) {
      Problem(path, absl::StrCat(value.size(), " items, fewer than ", schema["minItems"].Scalar()));
    }
    std::set<std::string> keys;
    const std::string list_type = schema["x-kubernetes-list-type"] ? schema["x-kubernetes-list-type"].Scalar() : "";
    for (size_t i = 0; i < value.size(); ++i) {
      const std::string child = absl::StrCat(path, "[", i, "]");
      if (schema["items"]) Check(schema["items"], value[i], child);
      std::string key;
      if (list_type == "set" && value[i].IsScalar()) key = value[i].Scalar();
      if (list_type == "map" && schema["x-kubernetes-list-map-keys"] && value[i].IsMap()) {
        std::vector<std::string> parts;
        for (const YAML::Node& k : schema["x-kubernetes-list-map-keys"]) {
          parts.push_back(value[i][k.Scalar()] ? value[i][k.Scalar()].Scalar() : "");
        }
        key = absl::StrJoin(parts, "/");
      }
      if (!key.empty() && !keys.insert(key).second) Problem(child, absl::StrCat("repeats the key ", key));
    }
  }
};

}  // namespace

absl::StatusOr<YAML::Node> CrdSchema(const std::string& path, const std::string& version) {
  YAML::Node crd;
  try {
    crd = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", e.what()));
  }
  for (const YAML::Node& v : crd["spec"]["versions"]) {
    if (v["name"].Scalar() == version && v["served"].as<bool>()) return v["schema"]["openAPIV3Schema"];
  }
  return absl::NotFoundError(absl::StrCat(path, ": no served version ", version));
}

std::vector<std::string> SchemaProblems(const YAML::Node& schema, const YAML::Node& value) {
  Checker checker;
  checker.Check(schema, value, "");
  return checker.problems;
}

}  // namespace fleetcap::testing
