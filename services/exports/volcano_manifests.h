#pragma once
// A recommendation set as Volcano Queues (scheduling.volcano.sh/v1beta1), for
// `kubectl apply -f -`: one Queue per leaf team, its deserved share the
// recommendation, its guarantee what the policy forbids it to lend, its
// capability its ceiling. docs/allocation.md ("Schedulers") maps every field.

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"

namespace fleetcap::exports {

struct VolcanoOptions {
  // Flavor name -> extended resource, in place of the one its model implies.
  std::map<std::string, std::string> resources;
};

// The Queues, as YAML documents separated by `---`, by name. Volcano's quotas
// are per resource, not per flavor: a team's flavors of one resource are
// summed. Errors (INVALID_ARGUMENT): those of PrepareExport
// (scheduler_export.h), team names that collide once made Kubernetes names or
// that are Volcano's own queues (`root`, `default`).
absl::StatusOr<std::string> VolcanoManifests(const std::vector<allocation::Recommendation>& rows,
                                             const policy::PolicyDocument& policy, const VolcanoOptions& options = {});

}  // namespace fleetcap::exports
