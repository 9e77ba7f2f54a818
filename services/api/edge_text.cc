#include "services/api/edge_text.h"

#include <map>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "policy/text_rules.h"

namespace fleetcap::api {
namespace {

// What a field holds, and so which pattern its value must match.
enum class Shape {
  kName,          // 1..63 of [A-Za-z0-9._-]: clusters, models, flavors, teams, keywords, numbers
  kDnsLabel,      // a Kubernetes namespace: 1..63 of [a-z0-9-], alphanumeric at both ends
  kDnsSubdomain,  // a Kubernetes pod or node: 1..253 of [a-z0-9.-], alphanumeric at both ends
  kPath,          // a device or workload id: 1..253 of [A-Za-z0-9._:/-]
  kTime,          // an RFC 3339 instant or a relative time: 1..64 of [A-Za-z0-9:.+ -]
  kNameList,      // names separated by commas (HTTP list parameters)
  kRole,          // a token's role: a name, or "team:" and a team's name
  kLine,          // free text on one line, at most 1 KiB
  kDocument,      // a YAML or JSON document: tabs and line breaks allowed, at most 4 MiB
};

constexpr size_t kDocumentBytes = size_t{4} << 20;
constexpr size_t kLineBytes = 1024;

// Fields not listed here are free text on one line (kLine).
const std::map<std::string, Shape, std::less<>>& Shapes() {
  static const auto* shapes = new std::map<std::string, Shape, std::less<>>{
      {"cluster", Shape::kName},       {"model", Shape::kName},
      {"flavor", Shape::kName},        {"team", Shape::kName},
      {"teams", Shape::kName},         {"line_kind", Shape::kName},
      {"resolution", Shape::kName},    {"format", Shape::kName},
      {"layout", Shape::kName},        {"what", Shape::kName},
      {"action", Shape::kName},        {"role", Shape::kRole},
      {"token_id", Shape::kName},      {"id", Shape::kName},
      {"after_id", Shape::kName},      {"before_id", Shape::kName},
      {"limit", Shape::kName},         {"version", Shape::kName},
      {"horizon", Shape::kName},       {"dry_run", Shape::kName},
      {"namespace", Shape::kDnsLabel}, {"pod", Shape::kDnsSubdomain},
      {"node", Shape::kDnsSubdomain},  {"device", Shape::kPath},
      {"workload", Shape::kPath},      {"start", Shape::kTime},
      {"end", Shape::kTime},           {"at", Shape::kTime},
      {"hour", Shape::kTime},          {"group_by", Shape::kNameList},
      {"document", Shape::kDocument},  {"scenario_yaml", Shape::kDocument},
  };
  return *shapes;
}

bool AllOf(absl::string_view s, absl::string_view extra, bool lower_only) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    const bool letter = lower_only ? (absl::ascii_islower(u) || absl::ascii_isdigit(u)) : absl::ascii_isalnum(u);
    if (!letter && extra.find(c) == absl::string_view::npos) return false;
  }
  return true;
}

bool AlnumEnds(absl::string_view s) {
  auto ok = [](char c) { return absl::ascii_islower(static_cast<unsigned char>(c)) || absl::ascii_isdigit(c); };
  return ok(s.front()) && ok(s.back());
}

absl::Status Refuse(absl::string_view label, absl::string_view rule) {
  return absl::InvalidArgumentError(absl::StrCat(label, ": ", rule));
}

// `label` names the value in the answer: the field, or a path to it in a message.
absl::Status CheckShape(absl::string_view label, absl::string_view value, Shape shape) {
  switch (shape) {
    case Shape::kName:
      if (policy::IsName(value)) return absl::OkStatus();
      return Refuse(label, "expected a name: 1 to 63 of A-Z, a-z, 0-9, '.', '_', '-', starting with a letter or digit");
    case Shape::kDnsLabel:
      if (value.size() <= 63 && AllOf(value, "-", true) && AlnumEnds(value)) return absl::OkStatus();
      return Refuse(label, "expected a Kubernetes namespace name: 1 to 63 of a-z, 0-9, '-', alphanumeric at both ends");
    case Shape::kDnsSubdomain:
      if (value.size() <= 253 && AllOf(value, ".-", true) && AlnumEnds(value)) return absl::OkStatus();
      return Refuse(label,
                    "expected a Kubernetes object name: 1 to 253 of a-z, 0-9, '.', '-', alphanumeric at both ends");
    case Shape::kPath:
      if (value.size() <= 253 && AllOf(value, "._:/-", false)) return absl::OkStatus();
      return Refuse(label, "expected an id: 1 to 253 of A-Z, a-z, 0-9, '.', '_', ':', '/', '-'");
    case Shape::kTime:
      if (value.size() <= 64 && AllOf(value, ":.+- ", false)) return absl::OkStatus();
      return Refuse(label, "expected an RFC 3339 time such as 2026-01-01T00:00:00Z");
    case Shape::kNameList:
      for (absl::string_view name : absl::StrSplit(value, ',')) {
        if (!policy::IsName(name)) {
          return Refuse(label, "expected names separated by commas, each 1 to 63 of A-Z, a-z, 0-9, '.', '_', '-'");
        }
      }
      return absl::OkStatus();
    case Shape::kRole:
      if (policy::IsName(absl::StripPrefix(value, "team:"))) return absl::OkStatus();
      return Refuse(label, "expected a role: admin, planner, scheduler or team:<team name>");
    case Shape::kLine:
      return policy::CheckFreeText(label, value, kLineBytes, false);
    case Shape::kDocument:
      return policy::CheckFreeText(label, value, kDocumentBytes, true);
  }
  return absl::OkStatus();
}

absl::Status CheckValue(absl::string_view field, absl::string_view label, absl::string_view value) {
  if (value.empty()) return absl::OkStatus();
  auto shape = Shapes().find(field);
  const Shape expected = shape == Shapes().end() ? Shape::kLine : shape->second;
  // Bytes first, with the same words for every shape: no pattern is ever
  // matched against a NUL, a control character or broken UTF-8.
  if (expected != Shape::kDocument && expected != Shape::kLine) {
    if (auto status = policy::CheckFreeText(label, value, kLineBytes, false); !status.ok()) return status;
  }
  return CheckShape(label, value, expected);
}

absl::Status CheckFields(const google::protobuf::Message& message, const std::string& prefix) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    const std::string label = absl::StrCat(prefix, field->name());
    const bool repeated = field->is_repeated();
    const int count = repeated ? reflection->FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) {
      const std::string item = repeated ? absl::StrCat(label, "[", i, "]") : label;
      if (field->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
        std::string scratch;
        const std::string& value = repeated ? reflection->GetRepeatedStringReference(message, field, i, &scratch)
                                            : reflection->GetStringReference(message, field, &scratch);
        if (auto status = CheckValue(field->name(), item, value); !status.ok()) return status;
      } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        const auto& nested =
            repeated ? reflection->GetRepeatedMessage(message, field, i) : reflection->GetMessage(message, field);
        if (auto status = CheckFields(nested, item + "."); !status.ok()) return status;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckEdgeText(absl::string_view field, absl::string_view value) { return CheckValue(field, field, value); }

absl::Status CheckEdgeQuery(const HttpQuery& query) {
  for (const auto& [name, value] : query) {
    if (!policy::IsName(name)) {
      return absl::InvalidArgumentError("query: a parameter name is not 1 to 63 of A-Z, a-z, 0-9, '.', '_', '-'");
    }
    if (auto status = CheckEdgeText(name, value); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status CheckEdgeMessage(const google::protobuf::Message& message) { return CheckFields(message, ""); }

}  // namespace fleetcap::api
