#include "store/memory_scenario_repository.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fleetcap::store {

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
