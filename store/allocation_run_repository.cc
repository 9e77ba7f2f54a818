#include "store/allocation_run_repository.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace fleetcap::store {

bool AllocationRecommendationRecord::operator==(const AllocationRecommendationRecord& o) const {
  return team == o.team && flavor == o.flavor && demand_milli == o.demand_milli &&
         guarantee_milli == o.guarantee_milli && recommended_milli == o.recommended_milli &&
         borrowing_limit_milli == o.borrowing_limit_milli && lending_limit_milli == o.lending_limit_milli &&
         bound_by == o.bound_by && explanation == o.explanation && measured_demand_milli == o.measured_demand_milli;
}

bool AllocationRunRecord::operator==(const AllocationRunRecord& o) const {
  return run_id == o.run_id && computed_at == o.computed_at && policy_version == o.policy_version &&
         inputs_json == o.inputs_json && recommendations == o.recommendations;
}

namespace {

bool KnownBoundBy(const std::string& bound_by) {
  for (const char* known : kAllocationBoundBy) {
    if (bound_by == known) return true;
  }
  return false;
}

absl::Status ValidateInputs(const std::string& inputs_json) {
  if (inputs_json.size() > kMaxAllocationInputsBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("inputs_json: ", inputs_json.size(), " bytes, more than ", kMaxAllocationInputsBytes));
  }
  const nlohmann::json inputs = nlohmann::json::parse(inputs_json, nullptr, /*allow_exceptions=*/false);
  if (inputs.is_discarded()) return absl::InvalidArgumentError("inputs_json: not valid JSON");
  if (!inputs.is_object()) return absl::InvalidArgumentError("inputs_json: not a JSON object");
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateAllocationRun(const AllocationRunDraft& run) {
  const absl::Time first = absl::FromCivil(absl::CivilSecond(1, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  const absl::Time past_last = absl::FromCivil(absl::CivilSecond(10000, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  if (run.computed_at < first || run.computed_at >= past_last) {
    return absl::InvalidArgumentError(
        absl::StrCat("computed_at: ", absl::FormatTime(run.computed_at), " is outside the years 1-9999"));
  }
  if (run.policy_version < 0) {
    return absl::InvalidArgumentError(absl::StrCat("policy_version: negative (", run.policy_version, ")"));
  }
  if (absl::Status inputs = ValidateInputs(run.inputs_json); !inputs.ok()) return inputs;
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < run.recommendations.size(); ++i) {
    const AllocationRecommendationRecord& r = run.recommendations[i];
    const std::string where = absl::StrCat("recommendations[", i, "]");
    if (r.team.empty()) return absl::InvalidArgumentError(absl::StrCat(where, ".team: empty"));
    if (r.flavor.empty()) return absl::InvalidArgumentError(absl::StrCat(where, ".flavor: empty"));
    const std::pair<const char*, int64_t> amounts[] = {
        {"demand_milli", r.demand_milli},
        {"guarantee_milli", r.guarantee_milli},
        {"recommended_milli", r.recommended_milli},
        {"borrowing_limit_milli", r.borrowing_limit_milli.value_or(0)},
        {"lending_limit_milli", r.lending_limit_milli},
        {"measured_demand_milli", r.measured_demand_milli.value_or(0)},
    };
    for (const auto& [field, value] : amounts) {
      if (value < 0) {
        return absl::InvalidArgumentError(absl::StrCat(where, ".", field, ": negative (", value, ")"));
      }
    }
    if (!KnownBoundBy(r.bound_by)) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".bound_by: \"", r.bound_by, "\" is not one of ",
                                                     absl::StrJoin(kAllocationBoundBy, ", ")));
    }
    if (!seen.emplace(r.team, r.flavor).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": team \"", r.team, "\" and flavor \"", r.flavor, "\" repeated"));
    }
  }
  return absl::OkStatus();
}

std::string CanonicalAllocationInputs(const std::string& inputs_json) {
  // nlohmann::json keeps object keys in a std::map: sorted by bytes.
  return nlohmann::json::parse(inputs_json, nullptr, /*allow_exceptions=*/false).dump();
}

absl::Time AllocationRunTime(absl::Time t) { return absl::FromUnixMicros(absl::ToUnixMicros(t)); }

}  // namespace fleetcap::store
