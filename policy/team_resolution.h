#pragma once
// Whose bill a pod is on, and which of the metadata its tenant writes is
// believed, as one policy version decides. The ingest stores only evidence
// (the cluster, the namespace, the pod's own team label, the namespace's
// labels and annotations); whatever reads facts (the API, the optimizer)
// resolves the team with the version in force at the time in question
// (policy_timeline.h), so a policy change re-attributes from when it took
// effect and never before.
//
// Precedence (docs/policy.md, "Teams"), the first that gives a team of the
// policy wins:
//   1. the pod's team label, only where `trusted_pods` trusts it;
//   2. the first `namespaces` rule naming the namespace exactly, in a
//      matching cluster;
//   3. the first `namespaces` pattern rule matching namespace and cluster;
//   4. the namespace's labels, then its annotations, under
//      `team_label_keys` (in the order listed);
//   5. "unassigned".
// A label naming a team the policy does not define is passed over, so no
// label can invent a chargeback line.

#include <map>
#include <memory>
#include <set>
#include <string>

#include "policy/policy_document.h"

namespace fleetcap::policy {

inline constexpr const char* kUnassignedTeam = "unassigned";

struct NamespaceEvidence {
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
};

struct PodEvidence {
  std::string cluster;
  std::string namespace_name;
  std::string team_label;  // the pod's own team label, "" when it has none
};

// Immutable once built; safe to share between threads.
class TeamResolver {
 public:
  // No policy: nothing trusted, nothing mapped, every pod unassigned.
  TeamResolver() : TeamResolver(std::make_shared<const PolicyDocument>()) {}
  explicit TeamResolver(std::shared_ptr<const PolicyDocument> policy);

  // `ns` may be null (no evidence about the namespace was stored).
  std::string TeamOf(const PodEvidence& pod, const NamespaceEvidence* ns) const;

  // Whether pods in `namespace_name` of `cluster` may name their team, or
  // size their holds with GPU-sharing annotations.
  bool TrustsTeamLabel(const std::string& cluster, const std::string& namespace_name) const;
  bool TrustsGpuShare(const std::string& cluster, const std::string& namespace_name) const;

  const PolicyDocument& policy() const { return *policy_; }

 private:
  const PodTrust* TrustFor(const std::string& cluster, const std::string& namespace_name, bool PodTrust::*what) const;
  const std::string* LabelTeam(const std::map<std::string, std::string>& values) const;

  std::shared_ptr<const PolicyDocument> policy_;
  std::set<std::string> teams_;
};

}  // namespace fleetcap::policy
