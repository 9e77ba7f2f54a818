#include "services/exports/kueue_manifests.h"

#include <algorithm>
#include <regex>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/exports/kubernetes_names.h"
#include "services/exports/scheduler_export.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::exports {
namespace {

constexpr char kApiVersion[] = "kueue.x-k8s.io/v1beta2";

absl::Status QueueError(const KueueClusterQueue& queue, const std::string& flavor, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(queue.owner, " ", queue.team, ", flavor ", flavor, ": ", what));
}

// A label key: an optional DNS subdomain prefix and '/', then a name of at
// most 63 characters (Kubernetes' qualified names).
bool IsLabelKey(const std::string& key) {
  static const std::regex kPattern(
      "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  size_t slash = key.find('/');
  size_t name_size = slash == std::string::npos ? key.size() : key.size() - slash - 1;
  return name_size <= 63 && (slash == std::string::npos || slash <= 253) && std::regex_match(key, kPattern);
}

bool IsLabelValue(const std::string& value) {
  static const std::regex kPattern("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  return value.size() <= 63 && std::regex_match(value, kPattern);
}

void Metadata(YAML::Emitter& out, const std::string& name, const std::string& annotation_key,
              const std::string& annotation_value) {
  out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << name;
  out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "fleetcap";
  out << YAML::EndMap;
  if (!annotation_key.empty()) {
    out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << annotation_key << YAML::Value << YAML::DoubleQuoted << annotation_value;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void Header(YAML::Emitter& out, const char* kind) {
  out << YAML::Key << "apiVersion" << YAML::Value << kApiVersion;
  out << YAML::Key << "kind" << YAML::Value << kind;
}

void FairSharing(YAML::Emitter& out, int64_t weight) {
  out << YAML::Key << "fairSharing" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "weight" << YAML::Value << YAML::DoubleQuoted << absl::StrCat(weight);
  out << YAML::EndMap;
}

void ResourceGroups(YAML::Emitter& out, const std::vector<KueueResourceGroup>& groups) {
  out << YAML::Key << "resourceGroups" << YAML::Value << YAML::BeginSeq;
  for (const KueueResourceGroup& group : groups) {
    out << YAML::BeginMap;
    out << YAML::Key << "coveredResources" << YAML::Value << YAML::Flow << group.covered_resources;
    out << YAML::Key << "flavors" << YAML::Value << YAML::BeginSeq;
    for (const KueueFlavorQuotas& flavor : group.flavors) {
      out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << flavor.name;
      out << YAML::Key << "resources" << YAML::Value << YAML::BeginSeq;
      for (const KueueResourceQuota& r : flavor.resources) {
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << r.resource;
        out << YAML::Key << "nominalQuota" << YAML::Value << YAML::DoubleQuoted << KubernetesQuantity(r.nominal_milli);
        if (r.borrowing_limit_milli) {
          out << YAML::Key << "borrowingLimit" << YAML::Value << YAML::DoubleQuoted
              << KubernetesQuantity(*r.borrowing_limit_milli);
        }
        if (r.lending_limit_milli) {
          out << YAML::Key << "lendingLimit" << YAML::Value << YAML::DoubleQuoted
              << KubernetesQuantity(*r.lending_limit_milli);
        }
        out << YAML::EndMap;
      }
      out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// The nodeLabels of a flavor's ResourceFlavor: the inventory's, and the pool
// label over them when one is given.
std::map<std::string, std::string> FlavorNodeLabels(const policy::Flavor& flavor, const KueueOptions& options) {
  std::map<std::string, std::string> labels;
  if (auto it = options.node_labels.find(flavor.name); it != options.node_labels.end()) labels = it->second;
  if (!options.pool_label.empty() && !flavor.pool.empty()) labels[options.pool_label] = flavor.pool;
  return labels;
}

std::string ResourceFlavorYaml(const std::string& name, const policy::Flavor& flavor, const KueueOptions& options) {
  const std::map<std::string, std::string> labels = FlavorNodeLabels(flavor, options);
  YAML::Emitter out;
  if (labels.empty()) {
    out << YAML::Comment(absl::StrCat("No node label is known for flavor ", flavor.name, " (model ", flavor.model,
                                      flavor.pool.empty() ? "" : absl::StrCat(", pool ", flavor.pool),
                                      "): this ResourceFlavor matches every node."));
  }
  out << YAML::BeginMap;
  Header(out, "ResourceFlavor");
  Metadata(out, name, "fleetcap.io/flavor", flavor.name);
  out << YAML::Key << "spec" << YAML::Value;
  if (labels.empty()) out << YAML::Flow;  // `spec: {}`
  out << YAML::BeginMap;
  if (!labels.empty()) {
    out << YAML::Key << "nodeLabels" << YAML::Value << YAML::BeginMap;
    for (const auto& [key, value] : labels) out << YAML::Key << key << YAML::Value << YAML::DoubleQuoted << value;
    out << YAML::EndMap;
  }
  out << YAML::EndMap << YAML::EndMap;
  return out.c_str();
}

std::string CohortYaml(const std::string& name, const std::string& team, const std::string& parent,
                       std::optional<int64_t> weight, const std::vector<KueueResourceGroup>& groups = {}) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  Header(out, "Cohort");
  Metadata(out, name, team.empty() ? "" : "fleetcap.io/team", team);
  out << YAML::Key << "spec" << YAML::Value;
  if (parent.empty() && !weight && groups.empty()) out << YAML::Flow;  // `spec: {}`
  out << YAML::BeginMap;
  if (!parent.empty()) out << YAML::Key << "parentName" << YAML::Value << parent;
  if (weight) FairSharing(out, *weight);
  if (!groups.empty()) ResourceGroups(out, groups);
  out << YAML::EndMap << YAML::EndMap;
  return out.c_str();
}

std::string ClusterQueueYaml(const KueueClusterQueue& queue) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  Header(out, "ClusterQueue");
  Metadata(out, queue.name, "fleetcap.io/team", queue.team);
  out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  if (!queue.cohort.empty()) out << YAML::Key << "cohortName" << YAML::Value << queue.cohort;
  if (!queue.namespaces.empty()) {
    out << YAML::Key << "namespaceSelector" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "matchExpressions" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "key" << YAML::Value << "kubernetes.io/metadata.name";
    out << YAML::Key << "operator" << YAML::Value << "In";
    out << YAML::Key << "values" << YAML::Value << YAML::BeginSeq;
    for (const std::string& ns : queue.namespaces) out << YAML::DoubleQuoted << ns;
    out << YAML::EndSeq << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  }
  FairSharing(out, queue.weight);
  ResourceGroups(out, queue.resource_groups);
  out << YAML::EndMap << YAML::EndMap;
  return out.c_str();
}

// Kueue's quotas from a recommendation: the nominal quota is the
// recommendation a; the borrowing limit keeps the team's ceiling g + b
// (a + borrowingLimit = g + b); the lending limit keeps the g - l the policy
// forbids lending out of the nominal quota (a - lendingLimit = min(a, g - l)),
// and is left out when the team may lend all of it.
KueueResourceQuota QuotaOf(const allocation::Recommendation& row, const std::string& resource) {
  KueueResourceQuota quota;
  quota.resource = resource;
  quota.nominal_milli = row.recommended_milli;
  if (row.borrowing_limit_milli) {
    quota.borrowing_limit_milli = row.guarantee_milli + *row.borrowing_limit_milli - row.recommended_milli;
  }
  if (row.lending_limit_milli < row.guarantee_milli) {
    int64_t kept = row.guarantee_milli - row.lending_limit_milli;
    quota.lending_limit_milli = std::max<int64_t>(0, row.recommended_milli - kept);
  }
  return quota;
}

// One resource group per resource, by resource name; its flavors by name.
using FlavorsByResource = std::map<std::string, std::map<std::string, KueueFlavorQuotas>>;
std::vector<KueueResourceGroup> GroupsOf(FlavorsByResource by_resource) {
  std::vector<KueueResourceGroup> groups;
  for (auto& [resource, flavors] : by_resource) {
    KueueResourceGroup group;
    group.covered_resources = {resource};
    for (auto& [flavor, quotas] : flavors) group.flavors.push_back(std::move(quotas));
    groups.push_back(std::move(group));
  }
  return groups;
}

// The guaranteed capacity a lending limit keeps from others while the team
// does not use it: in no nominal quota, so no one borrows it.
int64_t WithheldMilli(const allocation::Recommendation& row) {
  if (row.lending_limit_milli >= row.guarantee_milli) return 0;
  return std::max<int64_t>(0, row.guarantee_milli - row.lending_limit_milli - row.recommended_milli);
}

// The root Cohort's own quota: per flavor, what is left of its capacity.
KueueClusterQueue SpareQuota(const ExportSet& set, const std::map<std::string, std::string>& flavor_name,
                             const std::string& root_cohort) {
  std::map<std::string, int64_t> spare;
  for (const auto& [name, flavor] : set.flavors) spare[name] = flavor->capacity_milli;
  for (const auto& [team, rows] : set.by_team) {
    for (const allocation::Recommendation& row : rows) spare[row.flavor] -= row.recommended_milli + WithheldMilli(row);
  }
  KueueClusterQueue root;
  root.owner = "root cohort";
  root.team = root_cohort;
  root.name = root_cohort;
  FlavorsByResource by_resource;
  for (const auto& [name, milli] : spare) {
    const std::string& resource = set.resource_of.at(name);
    KueueResourceQuota quota;
    quota.resource = resource;
    quota.nominal_milli = std::max<int64_t>(0, milli);
    by_resource[resource].emplace(flavor_name.at(name), KueueFlavorQuotas{name, flavor_name.at(name), {quota}});
  }
  root.resource_groups = GroupsOf(std::move(by_resource));
  return root;
}

std::vector<std::string> ExactNamespaces(const policy::PolicyDocument& policy, const std::string& team) {
  std::set<std::string> names;
  for (const policy::NamespaceRule& rule : policy.namespaces) {
    if (rule.team == team && !rule.namespace_name.empty()) names.insert(rule.namespace_name);
  }
  return {names.begin(), names.end()};
}

absl::Status CheckOptions(const KueueOptions& options) {
  if (!options.root_cohort.empty() && DnsLabel(options.root_cohort) != options.root_cohort) {
    return absl::InvalidArgumentError(absl::StrCat("root cohort \"", options.root_cohort,
                                                   "\" is not a Kubernetes name (lower case letters, digits, '-')"));
  }
  if (!options.pool_label.empty() && !IsLabelKey(options.pool_label)) {
    return absl::InvalidArgumentError(absl::StrCat("pool label \"", options.pool_label,
                                                   "\" is not a label key (expected e.g. "
                                                   "cloud.google.com/gke-nodepool)"));
  }
  return absl::OkStatus();
}

// The Kubernetes names of the export's flavors and teams, each claimed once.
struct KueueNames {
  std::map<std::string, std::string> flavor_name;  // policy name -> ResourceFlavor name
  std::map<std::string, std::string> team_name;    // every team -> its Cohort or ClusterQueue name
};

// Kueue resolves a ClusterQueue's cohortName among Cohorts, and a Cohort
// and a ClusterQueue of one name would read as one node of its tree: one
// namespace of names for both.
absl::StatusOr<KueueNames> ClaimKueueNames(const ExportSet& set, const KueueOptions& options) {
  KueueNames names;
  DnsNames queue_names("team");
  if (!options.root_cohort.empty()) queue_names.Reserve(options.root_cohort, "the root cohort");
  DnsNames flavor_names("flavor");
  for (const auto& [name, flavor] : set.flavors) {
    absl::StatusOr<std::string> label = flavor_names.Claim(name);
    if (!label.ok()) return label.status();
    if (!options.pool_label.empty() && !flavor->pool.empty() && !IsLabelValue(flavor->pool)) {
      return absl::InvalidArgumentError(absl::StrCat("flavor ", name, ": pool \"", flavor->pool,
                                                     "\" is not a label value (it must end with a letter or digit)"));
    }
    if (auto it = options.node_labels.find(name); it != options.node_labels.end()) {
      for (const auto& [key, value] : it->second) {
        if (!IsLabelKey(key) || !IsLabelValue(value)) {
          return absl::InvalidArgumentError(
              absl::StrCat("flavor ", name, ": node label ", key, "=", value, " is not a label key and value"));
        }
      }
    }
    names.flavor_name.emplace(name, *label);
  }
  for (const auto& [name, team] : set.teams) {
    absl::StatusOr<std::string> label = queue_names.Claim(name);
    if (!label.ok()) return label.status();
    names.team_name.emplace(name, *label);
  }
  return names;
}

}  // namespace

absl::Status CheckKueueRules(const KueueClusterQueue& queue) {
  std::set<std::string> resources_seen;
  std::set<std::string> flavors_seen;
  for (size_t g = 0; g < queue.resource_groups.size(); ++g) {
    const KueueResourceGroup& group = queue.resource_groups[g];
    const std::string first = group.flavors.empty() ? std::string("(none)") : group.flavors.front().flavor;
    if (g == kKueueMaxResourceGroups) {
      return QueueError(
          queue, first,
          absl::StrCat("needs resource group ", g + 1, " (", absl::StrJoin(group.covered_resources, ", "),
                       "); Kueue allows at most ", kKueueMaxResourceGroups, " per ClusterQueue or Cohort"));
    }
    if (group.covered_resources.empty() || group.covered_resources.size() > kKueueMaxResourcesPerGroup) {
      return QueueError(queue, first,
                        absl::StrCat("a resource group covers ", group.covered_resources.size(),
                                     " resources (Kueue: 1 to ", kKueueMaxResourcesPerGroup, ")"));
    }
    if (group.flavors.empty()) {
      return QueueError(queue, first, "a resource group has no flavor (Kueue needs at least one)");
    }
    for (const std::string& r : group.covered_resources) {
      if (!resources_seen.insert(r).second) {
        return QueueError(queue, first, absl::StrCat("resource ", r, " is covered by two resource groups"));
      }
    }
    for (size_t f = 0; f < group.flavors.size(); ++f) {
      const KueueFlavorQuotas& flavor = group.flavors[f];
      if (f == kKueueMaxFlavorsPerGroup) {
        return QueueError(
            queue, flavor.flavor,
            absl::StrCat("is flavor ", f + 1, " of the group covering ", absl::StrJoin(group.covered_resources, ", "),
                         "; Kueue allows at most ", kKueueMaxFlavorsPerGroup, " per resource group"));
      }
      if (!flavors_seen.insert(flavor.name).second) {
        return QueueError(queue, flavor.flavor, "is in two resource groups");
      }
      std::vector<std::string> listed;
      for (const KueueResourceQuota& r : flavor.resources) listed.push_back(r.resource);
      if (listed != group.covered_resources) {
        return QueueError(queue, flavor.flavor,
                          absl::StrCat("lists resources [", absl::StrJoin(listed, ", "),
                                       "]; every flavor of a group lists its covered resources [",
                                       absl::StrJoin(group.covered_resources, ", "), "] in order"));
      }
      for (const KueueResourceQuota& r : flavor.resources) {
        if (queue.cohort.empty() && r.borrowing_limit_milli) {
          return QueueError(queue, flavor.flavor,
                            absl::StrCat("a borrowing limit on ", r.resource,
                                         " needs a cohort, and the team's ClusterQueue has none (a root team "
                                         "with no root cohort)"));
        }
        if (queue.cohort.empty() && r.lending_limit_milli) {
          return QueueError(queue, flavor.flavor,
                            absl::StrCat("a lending limit on ", r.resource,
                                         " needs a cohort, and the team's ClusterQueue has none (a root team "
                                         "with no root cohort)"));
        }
        if (r.lending_limit_milli && *r.lending_limit_milli > r.nominal_milli) {
          return QueueError(
              queue, flavor.flavor,
              absl::StrCat("lending limit ", KubernetesQuantity(*r.lending_limit_milli), " on ", r.resource,
                           " is above the nominal quota ", KubernetesQuantity(r.nominal_milli)));
        }
      }
    }
  }
  return absl::OkStatus();
}

KueueLimits KueueLimitsOf(const allocation::Recommendation& row) {
  const KueueResourceQuota quota = QuotaOf(row, "");
  KueueLimits limits;
  if (quota.borrowing_limit_milli) limits.borrowing_limit = KubernetesQuantity(*quota.borrowing_limit_milli);
  if (quota.lending_limit_milli) limits.lending_limit = KubernetesQuantity(*quota.lending_limit_milli);
  return limits;
}

absl::StatusOr<std::string> KueueManifests(const std::vector<allocation::Recommendation>& rows,
                                           const policy::PolicyDocument& policy, const KueueOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  absl::StatusOr<ExportSet> set = PrepareExport(rows, policy, options.resources);
  if (!set.ok()) return set.status();

  absl::StatusOr<KueueNames> names = ClaimKueueNames(*set, options);
  if (!names.ok()) return names.status();
  const std::map<std::string, std::string>& flavor_name = names->flavor_name;
  const std::map<std::string, std::string>& team_name = names->team_name;
  auto cohort_above = [&](const policy::Team& team) {
    return team.parent.empty() ? options.root_cohort : team_name.at(team.parent);
  };

  std::map<std::string, std::string> documents_flavors, documents_cohorts, documents_queues;
  for (const auto& [name, flavor] : set->flavors) {
    documents_flavors.emplace(flavor_name.at(name), ResourceFlavorYaml(flavor_name.at(name), *flavor, options));
  }
  for (const auto& [name, kids] : set->children) {
    const policy::Team& team = *set->teams.at(name);
    documents_cohorts.emplace(team_name.at(name),
                              CohortYaml(team_name.at(name), name, cohort_above(team), team.weight));
  }
  for (const auto& [name, team_rows] : set->by_team) {
    const policy::Team& team = *set->teams.at(name);
    KueueClusterQueue queue;
    queue.team = name;
    queue.name = team_name.at(name);
    queue.cohort = cohort_above(team);
    queue.weight = team.weight;
    queue.namespaces = ExactNamespaces(policy, name);
    FlavorsByResource by_resource;
    for (const allocation::Recommendation& row : team_rows) {
      const std::string& resource = set->resource_of.at(row.flavor);
      by_resource[resource].emplace(
          flavor_name.at(row.flavor),
          KueueFlavorQuotas{row.flavor, flavor_name.at(row.flavor), {QuotaOf(row, resource)}});
    }
    queue.resource_groups = GroupsOf(std::move(by_resource));
    if (absl::Status s = CheckKueueRules(queue); !s.ok()) return s;
    documents_queues.emplace(queue.name, ClusterQueueYaml(queue));
  }

  if (options.queues_only) {
    documents_flavors.clear();
    documents_cohorts.clear();
  }
  // After the teams' queues, whose errors name the team that broke a rule.
  if (!options.root_cohort.empty() && !options.queues_only) {
    KueueClusterQueue root;
    if (options.spare_on_root_cohort) {
      root = SpareQuota(*set, flavor_name, options.root_cohort);
      if (absl::Status s = CheckKueueRules(root); !s.ok()) return s;
    }
    documents_cohorts.emplace(options.root_cohort,
                              CohortYaml(options.root_cohort, "", "", std::nullopt, root.resource_groups));
  }
  std::string yaml;
  for (const auto* documents : {&documents_flavors, &documents_cohorts, &documents_queues}) {
    for (const auto& [name, document] : *documents) absl::StrAppend(&yaml, "---\n", document, "\n");
  }
  return yaml;
}

}  // namespace fleetcap::exports
