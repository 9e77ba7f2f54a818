#include "services/exports/volcano_manifests.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "services/exports/kubernetes_names.h"
#include "services/exports/scheduler_export.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::exports {
namespace {

// One resource of a Queue, summed over the team's flavors of that resource.
struct ResourceQuota {
  int64_t deserved_milli = 0;
  int64_t guarantee_milli = 0;
  std::optional<int64_t> capability_milli = 0;  // none: some flavor may borrow without limit
};

// Volcano's three levels (guarantee <= deserved <= capability) from a
// recommendation: the guarantee is the g - l of its guarantee the team may
// not lend, which the allocation withholds from others even while idle; the
// deserved share is the recommendation a, or that withheld part when it is
// larger; the capability is the ceiling g + b.
void AddRow(const allocation::Recommendation& row, ResourceQuota& quota) {
  int64_t kept = std::max<int64_t>(0, row.guarantee_milli - row.lending_limit_milli);
  quota.guarantee_milli += kept;
  quota.deserved_milli += std::max(row.recommended_milli, kept);
  if (quota.capability_milli && row.borrowing_limit_milli) {
    *quota.capability_milli += row.guarantee_milli + *row.borrowing_limit_milli;
  } else {
    quota.capability_milli.reset();
  }
}

void ResourceList(YAML::Emitter& out, const std::map<std::string, int64_t>& milli) {
  out << YAML::BeginMap;
  for (const auto& [resource, value] : milli) {
    out << YAML::Key << resource << YAML::Value << YAML::DoubleQuoted << KubernetesQuantity(value);
  }
  out << YAML::EndMap;
}

std::string QueueYaml(const std::string& name, const policy::Team& team,
                      const std::map<std::string, ResourceQuota>& quotas) {
  std::map<std::string, int64_t> deserved, guarantee, capability;
  for (const auto& [resource, q] : quotas) {
    deserved.emplace(resource, q.deserved_milli);
    if (q.guarantee_milli > 0) guarantee.emplace(resource, q.guarantee_milli);
    if (q.capability_milli) capability.emplace(resource, *q.capability_milli);
  }
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "apiVersion" << YAML::Value << "scheduling.volcano.sh/v1beta1";
  out << YAML::Key << "kind" << YAML::Value << "Queue";
  out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << name;
  out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "fleetcap" << YAML::EndMap;
  out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "fleetcap.io/team" << YAML::Value << YAML::DoubleQuoted << team.name << YAML::EndMap;
  out << YAML::EndMap;
  out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "weight" << YAML::Value << team.weight;
  out << YAML::Key << "reclaimable" << YAML::Value << true;
  // A resource some flavor may borrow without limit has no capability; the
  // others keep theirs (an absent resource is unlimited in Volcano).
  if (!capability.empty()) {
    out << YAML::Key << "capability" << YAML::Value;
    ResourceList(out, capability);
  }
  if (!guarantee.empty()) {
    out << YAML::Key << "guarantee" << YAML::Value << YAML::BeginMap << YAML::Key << "resource" << YAML::Value;
    ResourceList(out, guarantee);
    out << YAML::EndMap;
  }
  out << YAML::Key << "deserved" << YAML::Value;
  ResourceList(out, deserved);
  out << YAML::EndMap << YAML::EndMap;
  return out.c_str();
}

}  // namespace

absl::StatusOr<std::string> VolcanoManifests(const std::vector<allocation::Recommendation>& rows,
                                             const policy::PolicyDocument& policy, const VolcanoOptions& options) {
  absl::StatusOr<ExportSet> set = PrepareExport(rows, policy, options.resources);
  if (!set.ok()) return set.status();
  DnsNames names("team");
  names.Reserve("root", "Volcano's root queue");
  names.Reserve("default", "Volcano's default queue");
  std::map<std::string, std::string> documents;
  for (const auto& [team, team_rows] : set->by_team) {
    absl::StatusOr<std::string> name = names.Claim(team);
    if (!name.ok()) return name.status();
    std::map<std::string, ResourceQuota> quotas;
    for (const allocation::Recommendation& row : team_rows) AddRow(row, quotas[set->resource_of.at(row.flavor)]);
    documents.emplace(*name, QueueYaml(*name, *set->teams.at(team), quotas));
  }
  std::string yaml;
  for (const auto& [name, document] : documents) absl::StrAppend(&yaml, "---\n", document, "\n");
  return yaml;
}

}  // namespace fleetcap::exports
