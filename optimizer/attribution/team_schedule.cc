#include "optimizer/attribution/team_schedule.h"

#include <algorithm>

namespace fleetcap::attribution {

std::vector<TeamSpan> PolicyTimelineTeams::TeamsDuring(const policy::PodEvidence& pod, absl::Time from,
                                                       absl::Time to) const {
  auto ns = namespaces_.find({pod.cluster, pod.namespace_name});
  const policy::NamespaceEvidence* evidence = ns == namespaces_.end() ? nullptr : &ns->second;
  std::vector<TeamSpan> out;
  for (const policy::PolicyInForce& v : timeline_.During(from, to, up_to_)) {
    TeamSpan span{std::max(from, v.from), std::min(to, v.to), v.teams->TeamOf(pod, evidence)};
    if (!out.empty() && out.back().team == span.team) {
      out.back().to = span.to;
    } else {
      out.push_back(std::move(span));
    }
  }
  return out;
}

}  // namespace fleetcap::attribution
