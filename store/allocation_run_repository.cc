#include "store/allocation_run_repository.h"

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fleetcap::store {

bool AllocationRecommendationRecord::operator==(const AllocationRecommendationRecord& o) const {
  return team == o.team && flavor == o.flavor && demand_milli == o.demand_milli &&
         guarantee_milli == o.guarantee_milli && recommended_milli == o.recommended_milli &&
         borrowing_limit_milli == o.borrowing_limit_milli && lending_limit_milli == o.lending_limit_milli &&
         bound_by == o.bound_by && explanation == o.explanation;
}

bool AllocationRunRecord::operator==(const AllocationRunRecord& o) const {
  return run_id == o.run_id && computed_at == o.computed_at && policy_version == o.policy_version &&
         inputs_json == o.inputs_json && recommendations == o.recommendations;
}

absl::Status ValidateAllocationRun(const AllocationRunDraft& run) {
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
    };
    for (const auto& [field, value] : amounts) {
      if (value < 0) {
        return absl::InvalidArgumentError(absl::StrCat(where, ".", field, ": negative (", value, ")"));
      }
    }
    if (!seen.emplace(r.team, r.flavor).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": team \"", r.team, "\" and flavor \"", r.flavor, "\" repeated"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> MemoryAllocationRunRepository::StoreRun(const AllocationRunDraft& run) {
  if (absl::Status valid = ValidateAllocationRun(run); !valid.ok()) return valid;
  AllocationRunRecord record;
  record.run_id = runs_.empty() ? 1 : runs_.back().run_id + 1;
  record.computed_at = run.computed_at;
  record.policy_version = run.policy_version;
  record.inputs_json = run.inputs_json;
  record.recommendations = run.recommendations;
  runs_.push_back(std::move(record));
  return runs_.back().run_id;
}

absl::StatusOr<std::optional<int64_t>> MemoryAllocationRunRepository::LatestRunId() {
  if (runs_.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(runs_.back().run_id);
}

absl::StatusOr<std::optional<AllocationRunRecord>> MemoryAllocationRunRepository::LatestRun() {
  if (runs_.empty()) return std::optional<AllocationRunRecord>();
  return std::optional<AllocationRunRecord>(runs_.back());
}

}  // namespace fleetcap::store
