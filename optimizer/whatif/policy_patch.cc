#include "optimizer/whatif/policy_patch.h"

#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/yaml_nesting.h"
#include "optimizer/whatif/scenario_parser.h"
#include "policy/policy_parser.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::whatif {
namespace {

absl::StatusOr<PolicyInUse> Parse(const std::string& yaml, int32_t version) {
  policy::ParsedPolicy parsed = policy::ParsePolicy(yaml);
  if (!parsed.ok()) {
    return absl::InternalError(absl::StrCat("stored policy version ", version, " does not validate: ",
                                            policy::FormatPolicyErrors("policy", parsed.errors)));
  }
  return PolicyInUse{std::move(parsed.document), version};
}

// The node a policy field path ("allocation[2].team") names within `root`,
// as deep as the path can be followed; `root` itself when not even its first step.
YAML::Node Follow(const YAML::Node& root, const std::string& path) {
  YAML::Node at = root;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') ++i;
    if (i < path.size() && path[i] == '[') {
      const size_t close = path.find(']', i);
      size_t index = 0;
      if (close == std::string::npos || !absl::SimpleAtoi(path.substr(i + 1, close - i - 1), &index) ||
          !at.IsSequence() || index >= at.size()) {
        return at;
      }
      at.reset(at[index]);
      i = close + 1;
      continue;
    }
    const size_t end = path.find_first_of(".[", i);
    const std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (key.empty() || !at.IsMap() || !at[key].IsDefined()) return at;
    at.reset(at[key]);
    i = end == std::string::npos ? path.size() : end;
  }
  return at;
}

// A problem of the patched policy, moved to where the scenario wrote its cause.
policy::PolicyError InScenario(const policy::PolicyError& e, const PolicyChange& change) {
  const std::string section = e.field.substr(0, e.field.find_first_of(".["));
  policy::PolicyError out = e;
  out.field = absl::StrCat("policy.patch.", e.field.empty() ? "document" : e.field);
  if (change.patch[section].IsDefined()) {
    const YAML::Mark mark = Follow(change.patch, e.field).Mark();
    out.line = mark.line + 1;
    out.column = mark.column + 1;
  } else {
    // An unchanged section that no longer fits the patched ones: point at the patch.
    out.line = change.patch.Mark().line + 1;
    out.column = change.patch.Mark().column + 1;
    out.message = absl::StrCat(e.message, " (in the active policy's ", section, ", after the patch)");
  }
  return out;
}

}  // namespace

absl::StatusOr<PolicyInUse> ActivePolicy(const PlanningState& state) {
  return Parse(state.policy_yaml, state.policy_version);
}

absl::StatusOr<PolicyInUse> ScenarioPolicy(const PlanningState& state, const ScenarioDocument& scenario) {
  if (!scenario.policy) return ActivePolicy(state);
  const PolicyChange& change = *scenario.policy;
  if (change.version) {
    auto it = state.other_policies.find(*change.version);
    if (*change.version == state.policy_version) return ActivePolicy(state);
    if (it == state.other_policies.end()) {
      return ScenarioErrors(
          {{change.line, 0, "policy.version", absl::StrCat("no stored policy version ", *change.version)}});
    }
    return Parse(it->second, *change.version);
  }
  std::string merged_text;
  // Stored before documents were checked for depth, it may be as deep as anything; so check it here too.
  if (auto problem = CheckYamlNesting(state.policy_yaml)) {
    return absl::InternalError(
        absl::StrCat("active policy version ", state.policy_version, ": line ", problem->line, ": ", problem->message));
  }
  try {
    YAML::Node merged = YAML::Load(state.policy_yaml);
    for (auto it = change.patch.begin(); it != change.patch.end(); ++it) {
      merged[it->first.Scalar()] = it->second;
    }
    YAML::Emitter out;
    out << merged;
    merged_text = out.c_str();
  } catch (const YAML::Exception& e) {
    return absl::InternalError(absl::StrCat("active policy version ", state.policy_version, ": ", e.what()));
  }
  policy::ParsedPolicy parsed = policy::ParsePolicy(merged_text);
  if (!parsed.ok()) {
    std::vector<policy::PolicyError> errors;
    for (const auto& e : parsed.errors) errors.push_back(InScenario(e, change));
    return ScenarioErrors(errors);
  }
  return PolicyInUse{std::move(parsed.document), 0};
}

}  // namespace fleetcap::whatif
