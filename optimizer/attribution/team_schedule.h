#pragma once
// The team of a pod over time. A policy change re-attributes from the moment
// it took effect, so a hold may belong to one team before 14:20 and to
// another after; the engine asks once per distinct (cluster, namespace,
// team label) for the whole window.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "policy/policy_timeline.h"
#include "policy/team_resolution.h"

namespace fleetcap::attribution {

struct TeamSpan {
  absl::Time from;
  absl::Time to;
  std::string team;
};

class TeamSchedule {
 public:
  virtual ~TeamSchedule() = default;
  // Consecutive spans covering [from, to), one team each.
  virtual std::vector<TeamSpan> TeamsDuring(const policy::PodEvidence& pod, absl::Time from, absl::Time to) const = 0;
};

// Namespace labels and annotations, by (cluster, namespace).
using NamespaceEvidenceMap = std::map<std::pair<std::string, std::string>, policy::NamespaceEvidence>;

// Teams as the policy versions of a timeline resolve them, each over the
// time it was in force, as if no version numbered above `up_to` had been
// applied (policy::PolicyTimeline::During). The timeline must outlive this.
class PolicyTimelineTeams : public TeamSchedule {
 public:
  PolicyTimelineTeams(const policy::PolicyTimeline& timeline, NamespaceEvidenceMap namespaces,
                      int32_t up_to = policy::PolicyTimeline::kEveryVersion)
      : timeline_(timeline), namespaces_(std::move(namespaces)), up_to_(up_to) {}

  std::vector<TeamSpan> TeamsDuring(const policy::PodEvidence& pod, absl::Time from, absl::Time to) const override;

 private:
  const policy::PolicyTimeline& timeline_;
  NamespaceEvidenceMap namespaces_;
  int32_t up_to_;
};

}  // namespace fleetcap::attribution
