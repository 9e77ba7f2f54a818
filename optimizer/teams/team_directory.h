#pragma once
// Which team a pod or a namespace belongs to at a given time, the one answer
// every reader uses (the optimizer's passes, the API's queries and
// authorisation): the policy versions over time (policy::PolicyTimeline), the
// evidence the ingest keeps of namespaces (store::TeamFactsRepository), and
// policy::TeamResolver over them. It stores nothing decided: each answer is
// resolved with the version in force at the time in question.
//
// A process keeps one directory over its one timeline, so every reader sees
// the same versions. Thread-safe.

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/attribution/team_schedule.h"
#include "policy/policy_timeline.h"
#include "policy/team_resolution.h"
#include "store/team_facts_repository.h"

namespace fleetcap::teams {

// A policy timeline's versions, read from the store's team facts. `facts`
// must outlive the timeline.
policy::PolicyTimeline::Fetch PoliciesOf(store::TeamFactsRepository* facts);

// The labels and annotations kept of some namespaces, read once.
class NamespaceEvidenceBook {
 public:
  NamespaceEvidenceBook() = default;
  explicit NamespaceEvidenceBook(attribution::NamespaceEvidenceMap namespaces) : namespaces_(std::move(namespaces)) {}

  // The namespaces of `cluster` ("" every cluster) named `namespace_name` ("" every namespace).
  static absl::StatusOr<NamespaceEvidenceBook> Read(store::TeamFactsRepository* facts, const std::string& cluster,
                                                    const std::string& namespace_name);

  // Null when nothing is kept of the namespace.
  const policy::NamespaceEvidence* Find(const std::string& cluster, const std::string& namespace_name) const;
  // The first namespace read (by cluster, then name); null when none was.
  const policy::NamespaceEvidence* First() const;

  // The team of `pod` as `resolver` decides it, with its namespace's evidence.
  std::string TeamOf(const policy::TeamResolver& resolver, const policy::PodEvidence& pod) const {
    return resolver.TeamOf(pod, Find(pod.cluster, pod.namespace_name));
  }

  const attribution::NamespaceEvidenceMap& namespaces() const& { return namespaces_; }
  attribution::NamespaceEvidenceMap namespaces() && { return std::move(namespaces_); }

 private:
  attribution::NamespaceEvidenceMap namespaces_;
};

// The team of each pod (in `pods`' order) as `resolver` decides it. The
// namespace evidence is read only when there is a pod to resolve.
absl::StatusOr<std::vector<std::string>> ResolveTeams(store::TeamFactsRepository* facts,
                                                      const policy::TeamResolver& resolver,
                                                      const std::vector<policy::PodEvidence>& pods);

class TeamDirectory {
 public:
  // Policy versions and namespace evidence both from `facts`, which must
  // outlive the directory.
  explicit TeamDirectory(store::TeamFactsRepository* facts);
  // Over a timeline the caller owns and shares (the optimizer's passes);
  // both must outlive the directory.
  TeamDirectory(store::TeamFactsRepository* facts, policy::PolicyTimeline* timeline);

  TeamDirectory(const TeamDirectory&) = delete;
  TeamDirectory& operator=(const TeamDirectory&) = delete;

  // Reads the policy versions applied since the last call.
  absl::Status Refresh() { return timeline_->Refresh(); }
  const policy::PolicyTimeline& timeline() const { return *timeline_; }
  policy::PolicyTimeline* mutable_timeline() { return timeline_; }
  store::TeamFactsRepository* facts() const { return facts_; }

  // The namespaces of `cluster` ("" every cluster) named `namespace_name` ("" every namespace).
  absl::StatusOr<NamespaceEvidenceBook> Namespaces(const std::string& cluster,
                                                   const std::string& namespace_name) const {
    return NamespaceEvidenceBook::Read(facts_, cluster, namespace_name);
  }

  // The team of each pod over time, every namespace's evidence read now and
  // each version over the time it was in force (for the chargeback), none
  // numbered above `up_to`. The schedule reads this directory's timeline, so
  // the directory must outlive it.
  absl::StatusOr<std::shared_ptr<const attribution::TeamSchedule>> Schedule(
      int32_t up_to = policy::PolicyTimeline::kEveryVersion) const;

  // Each of the following resolves as if no version numbered above `up_to`
  // had been applied (policy::PolicyTimeline::At): a request is answered under
  // the version it was authorised under.

  // Milli-devices held at `at` per team, in `cluster` ("" every cluster),
  // under the version in force at `at`.
  absl::StatusOr<std::map<std::string, int64_t>> HeldByTeamAt(const std::string& cluster, absl::Time at,
                                                              int32_t up_to = policy::PolicyTimeline::kEveryVersion);

  // The team of each pod (in `pods`' order) under the version in force at `at`.
  absl::StatusOr<std::vector<std::string>> TeamsOfPodsAt(const std::vector<store::PodTeamEvidence>& pods, absl::Time at,
                                                         int32_t up_to = policy::PolicyTimeline::kEveryVersion);

  // Every team that usage of `namespace_name` in `cluster` over [start, end)
  // is attributed to: the namespace's own team and that of each of its pods,
  // under each version in force during the window.
  absl::StatusOr<std::set<std::string>> TeamsOfNamespace(const std::string& cluster, const std::string& namespace_name,
                                                         absl::Time start, absl::Time end,
                                                         int32_t up_to = policy::PolicyTimeline::kEveryVersion);

 private:
  store::TeamFactsRepository* facts_;
  std::unique_ptr<policy::PolicyTimeline> owned_;  // set when the directory reads its own versions
  policy::PolicyTimeline* timeline_;
};

}  // namespace fleetcap::teams
