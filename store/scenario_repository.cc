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

absl::StatusOr<int64_t> MemoryScenarioRepository::Save(const ScenarioDraft& draft) {
  if (auto s = ValidateScenarioDraft(draft); !s.ok()) return s;
  ScenarioRecord r;
  r.scenario_id = saved_.empty() ? 1 : saved_.back().scenario_id + 1;
  r.saved = draft;
  r.saved.result_json = CanonicalScenarioResult(draft.result_json);
  r.saved.saved_at = ScenarioTime(draft.saved_at);
  saved_.push_back(std::move(r));
  return saved_.back().scenario_id;
}

absl::StatusOr<std::vector<ScenarioSummary>> MemoryScenarioRepository::List(int64_t before_id, int64_t limit) {
  if (limit < 1 || limit > 1000) {
    return absl::InvalidArgumentError(absl::StrCat("scenario list limit: ", limit, " is outside 1..1000"));
  }
  std::vector<ScenarioSummary> out;
  for (auto it = saved_.rbegin(); it != saved_.rend() && static_cast<int64_t>(out.size()) < limit; ++it) {
    if (before_id > 0 && it->scenario_id >= before_id) continue;
    out.push_back({it->scenario_id, it->saved.name, it->saved.policy_version, it->saved.saved_at, it->saved.saved_by});
  }
  return out;
}

absl::StatusOr<ScenarioRecord> MemoryScenarioRepository::Get(int64_t scenario_id) {
  for (const auto& r : saved_) {
    if (r.scenario_id == scenario_id) return r;
  }
  return absl::NotFoundError(absl::StrCat("scenario ", scenario_id, ": no such saved scenario"));
}

}  // namespace fleetcap::store
