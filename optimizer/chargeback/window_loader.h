#pragma once
// Stored facts and policy versions -> what the attribution engine reads, for
// a window of whole hours of the fleet or of one cluster (docs/attribution.md, "The
// optimizer daemon"):
// - every cluster's devices, holds and per-minute use, in one input (or one
//   cluster's: LoadClusterWindow);
// - teams resolved by the version in force at each second
//   (attribution::PolicyTimelineTeams);
// - the attribution options (basis, idle, shared namespaces, fixed costs) of
//   the version in force at the start of each hour: the engine takes one set
//   per call, so the window is split into pieces at the hours where they
//   change;
// - the newest version's price list, whose effective dates decide the price
//   at each second (a corrected price re-prices the hours it covers).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/attribution/attribution_facts.h"
#include "optimizer/attribution/team_schedule.h"
#include "optimizer/teams/team_directory.h"
#include "policy/policy_timeline.h"
#include "store/attribution_facts_repository.h"
#include "store/team_facts_repository.h"

namespace fleetcap::chargeback {

// Where a window's facts come from: the stored facts, and the team directory
// whose timeline gives the policy versions and whose namespace evidence
// resolves teams. A process keeps one directory that all its loads share
// (teams/team_directory.h). All must outlive every LoadedWindow loaded from
// them (its team schedule reads the directory's timeline).
class FactsSources {
 public:
  FactsSources() = default;
  // Over `directory`, which the caller shares; each load resolves as if no
  // policy version numbered above `up_to` had been applied
  // (policy::PolicyTimeline::At): what a request authorised under version
  // `up_to` is answered with.
  FactsSources(const store::AttributionFactsRepository* stored_facts, teams::TeamDirectory* shared_directory,
               int32_t newest_version = policy::PolicyTimeline::kEveryVersion)
      : facts(stored_facts), directory(shared_directory), up_to(newest_version) {}
  // Over a directory of its own on `teams` (namespace evidence) and
  // `policies`, made once here and shared by every copy: for a caller that
  // has no directory of its process to share (a test, a one-off load).
  FactsSources(const store::AttributionFactsRepository* stored_facts, store::TeamFactsRepository* team_facts,
               policy::PolicyTimeline* policies);

  // The policy versions, refreshed by each load.
  policy::PolicyTimeline* policies() const { return directory->mutable_timeline(); }

  const store::AttributionFactsRepository* facts = nullptr;
  teams::TeamDirectory* directory = nullptr;
  int32_t up_to = policy::PolicyTimeline::kEveryVersion;

 private:
  std::shared_ptr<teams::TeamDirectory> own_directory_;
};

// Consecutive hours computed with one set of attribution options.
struct WindowPiece {
  attribution::AttributionInput input;
  int32_t options_version = 0;  // the policy version the options are from (0: none applied)
};

struct LoadedWindow {
  std::vector<WindowPiece> pieces;  // in time order, together covering the window
  std::shared_ptr<const attribution::TeamSchedule> teams;
  std::vector<std::string> clusters;  // every cluster known, by name, whether it had facts or not
};

// The facts of every cluster over the whole hours [start, end), start < end
// (INVALID_ARGUMENT otherwise); a store error as it comes.
absl::StatusOr<LoadedWindow> LoadWindow(const FactsSources& sources, absl::Time start, absl::Time end);

// The same for `cluster` alone (`clusters` is just it): a cluster's lines
// depend on its own facts only (idle and shared costs stay within a cluster,
// model and hour), so a cluster is computed by itself when the optimizer
// shares work by cluster. Only the `fixed` lines need the whole fleet.
absl::StatusOr<LoadedWindow> LoadClusterWindow(const FactsSources& sources, const std::string& cluster,
                                               absl::Time start, absl::Time end);

// The attribution facts of one cluster's stored records.
void AppendFacts(const std::string& cluster, const store::AttributionFactsRecord& record,
                 attribution::AttributionInput* input);

// Whether two versions' attribution sections charge alike.
bool SameAttribution(const policy::Attribution& a, const policy::Attribution& b);

}  // namespace fleetcap::chargeback
