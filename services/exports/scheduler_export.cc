#include "services/exports/scheduler_export.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "policy/policy_parser.h"
#include "services/exports/kubernetes_names.h"

namespace fleetcap::exports {
namespace {

std::string RowName(const allocation::Recommendation& row) {
  return absl::StrCat("recommendation for team ", row.team, " on flavor ", row.flavor);
}

absl::Status CheckQuantity(const allocation::Recommendation& row, const char* field, int64_t milli) {
  if (milli < 0 || milli > kMaxExportMilli) {
    return absl::InvalidArgumentError(
        absl::StrCat(RowName(row), ": ", field, " is ", milli, " (expected 0 to ", kMaxExportMilli, " milli-devices)"));
  }
  return absl::OkStatus();
}

absl::Status CheckRow(const allocation::Recommendation& row) {
  for (auto [field, milli] : {std::pair<const char*, int64_t>{"demand_milli", row.demand_milli},
                              {"guarantee_milli", row.guarantee_milli},
                              {"recommended_milli", row.recommended_milli},
                              {"lending_limit_milli", row.lending_limit_milli}}) {
    if (absl::Status s = CheckQuantity(row, field, milli); !s.ok()) return s;
  }
  if (row.borrowing_limit_milli) {
    if (absl::Status s = CheckQuantity(row, "borrowing_limit_milli", *row.borrowing_limit_milli); !s.ok()) return s;
    if (row.recommended_milli > row.guarantee_milli + *row.borrowing_limit_milli) {
      return absl::InvalidArgumentError(absl::StrCat(RowName(row), ": recommended_milli ", row.recommended_milli,
                                                     " is above guarantee_milli ", row.guarantee_milli,
                                                     " + borrowing_limit_milli ", *row.borrowing_limit_milli));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ExportSet> PrepareExport(const std::vector<allocation::Recommendation>& rows,
                                        const policy::PolicyDocument& policy,
                                        const std::map<std::string, std::string>& resource_overrides) {
  ExportSet set;
  for (const policy::Team& t : policy.teams) set.teams.emplace(t.name, &t);
  for (const policy::Team& t : policy.teams) {
    if (!t.parent.empty()) set.children[t.parent].push_back(t.name);
  }
  for (auto& [parent, kids] : set.children) std::sort(kids.begin(), kids.end());
  std::map<std::string, const policy::Flavor*> flavors;
  for (const policy::Flavor& f : policy.flavors) flavors.emplace(f.name, &f);

  for (const allocation::Recommendation& row : rows) {
    if (set.teams.count(row.team) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(RowName(row), ": the policy has no team ", row.team));
    }
    if (set.children.count(row.team) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(RowName(row), ": team ", row.team, " has teams below it; quotas belong to leaf teams"));
    }
    auto flavor = flavors.find(row.flavor);
    if (flavor == flavors.end()) {
      return absl::InvalidArgumentError(absl::StrCat(RowName(row), ": the policy has no flavor ", row.flavor));
    }
    if (absl::Status s = CheckRow(row); !s.ok()) return s;
    if (set.flavors.emplace(row.flavor, flavor->second).second) {
      absl::StatusOr<std::string> resource = AcceleratorResource(*flavor->second, resource_overrides);
      if (!resource.ok()) return resource.status();
      set.resource_of.emplace(row.flavor, *resource);
    }
    set.by_team[row.team].push_back(row);
  }
  for (auto& [team, team_rows] : set.by_team) {
    std::sort(
        team_rows.begin(), team_rows.end(),
        [](const allocation::Recommendation& a, const allocation::Recommendation& b) { return a.flavor < b.flavor; });
    for (size_t i = 1; i < team_rows.size(); ++i) {
      if (team_rows[i].flavor == team_rows[i - 1].flavor) {
        return absl::InvalidArgumentError(absl::StrCat(RowName(team_rows[i]), ": given twice"));
      }
    }
  }
  return set;
}

absl::StatusOr<policy::PolicyDocument> PolicyForExport(absl::string_view document, int version) {
  policy::ParsedPolicy parsed = policy::ParsePolicy(document);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        policy::FormatPolicyErrors(absl::StrCat("policy version ", version), parsed.errors));
  }
  return std::move(parsed.document);
}

}  // namespace fleetcap::exports
