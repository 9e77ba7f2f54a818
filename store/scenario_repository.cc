#include "store/scenario_repository.h"

#include <tuple>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace fleetcap::store {
namespace {

absl::Status CheckText(const char* field, const std::string& value, size_t max) {
  if (value.empty() || value.size() > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("scenario ", field, ": ", value.size(), " bytes, expected 1 to ", max));
  }
  if (value.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("scenario ", field, ": contains a NUL byte"));
  }
  return absl::OkStatus();
}

}  // namespace

bool ScenarioRecord::operator==(const ScenarioRecord& o) const {
  return std::tie(scenario_id, saved.name, saved.document, saved.result_json, saved.policy_version, saved.saved_at,
                  saved.saved_by) == std::tie(o.scenario_id, o.saved.name, o.saved.document, o.saved.result_json,
                                              o.saved.policy_version, o.saved.saved_at, o.saved.saved_by);
}

bool ScenarioSummary::operator==(const ScenarioSummary& o) const {
  return std::tie(scenario_id, name, policy_version, saved_at, saved_by) ==
         std::tie(o.scenario_id, o.name, o.policy_version, o.saved_at, o.saved_by);
}

absl::Status ValidateScenarioDraft(const ScenarioDraft& draft) {
  if (auto s = CheckText("name", draft.name, kMaxScenarioNameBytes); !s.ok()) return s;
  if (auto s = CheckText("document", draft.document, kMaxScenarioDocumentBytes); !s.ok()) return s;
  if (auto s = CheckText("saved_by", draft.saved_by, kMaxScenarioNameBytes); !s.ok()) return s;
  if (draft.policy_version < 0) {
    return absl::InvalidArgumentError(absl::StrCat("scenario policy_version: ", draft.policy_version, " is negative"));
  }
  if (draft.result_json.size() > kMaxScenarioResultBytes) {
    return absl::InvalidArgumentError(absl::StrCat("scenario result: ", draft.result_json.size(),
                                                   " bytes, expected at most ", kMaxScenarioResultBytes));
  }
  const nlohmann::json parsed = nlohmann::json::parse(draft.result_json, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return absl::InvalidArgumentError("scenario result: expected a JSON object");
  if (draft.saved_at < absl::FromUnixSeconds(0) || draft.saved_at > absl::FromUnixSeconds(253402300799)) {
    return absl::InvalidArgumentError("scenario saved_at: outside the years 1970-9999");
  }
  return absl::OkStatus();
}

std::string CanonicalScenarioResult(const std::string& json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? "" : parsed.dump();
}

absl::Time ScenarioTime(absl::Time t) { return absl::FromUnixMicros(absl::ToUnixMicros(t)); }

}  // namespace fleetcap::store
