#pragma once
// The optimizer's rightsizing run (docs/insights.md, "Rightsizing"): once a
// UTC day (or every --insights-interval, on whole multiples of it since the
// epoch), for each cluster whose stored recommendations are of an earlier
// interval, the instance doing the fleet's work loads the lookback (the
// policy's `insights.rightsizing_lookback_days`, ending at the current whole
// hour): the holds with their pods (AttributionFactsRepository::HoldFacts),
// cut into parts of whole workloads (rightsizing_workloads.h), and each
// part's per-minute readings (UsageReadRepository::PodMinutes: its pods' on
// its devices) in turn, the teams resolved with the policy in force now; it
// runs the engine of optimizer/insights/ over each part and replaces the
// cluster's recommendations with them all. Everything
// goes through the store's repository interfaces and a Clock, so it is
// unit-tested in memory.

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "optimizer/teams/team_directory.h"
#include "store/attribution_facts_repository.h"
#include "store/rightsizing_repository.h"
#include "store/usage_repository.h"

namespace fleetcap::optimizer {

struct RightsizingPassOptions {
  absl::Duration interval = absl::Hours(24);  // a run per whole interval since the epoch: 24h is once per UTC day
  // A cluster's workloads are read and rightsized in parts of whole
  // workloads of about this many holds (a pod's device) each: what bounds the
  // readings held at once (~3 MB a hold over 14 days), whatever the cluster's
  // size. The recommendations are the same whatever the size.
  int64_t batch_holds = 32;
};

// INVALID_ARGUMENT naming the flag for an interval that is not whole hours from 1h to 744h.
absl::Status ValidateRightsizingPassOptions(const RightsizingPassOptions& options);

struct RightsizingPassStores {
  const store::AttributionFactsRepository* facts = nullptr;
  const store::UsageReadRepository* usage = nullptr;
  teams::TeamDirectory* directory = nullptr;
  store::RightsizingRepository* rightsizing = nullptr;
};

struct RightsizingPassReport {
  std::string skipped;                  // why nothing ran: "no policy"; "" when it did
  int64_t clusters = 0;                 // clusters whose recommendations were computed and stored
  int64_t current = 0;                  // clusters already computed this interval
  int64_t recommendations = 0;          // stored
  int64_t savings_micro_per_month = 0;  // of the recommendations stored, summed
};

class RightsizingPass {
 public:
  // Everything must outlive this.
  RightsizingPass(RightsizingPassStores stores, RightsizingPassOptions options, const Clock* clock)
      : stores_(stores), options_(options), clock_(clock) {}

  absl::StatusOr<RightsizingPassReport> Run();

 private:
  // Whether `cluster`'s stored run is of the current interval.
  absl::StatusOr<bool> Current(const std::string& cluster, absl::Time now) const;
  // Computes and stores `cluster`'s recommendations over [start, end).
  absl::Status RunCluster(const std::string& cluster, absl::Time start, absl::Time end, absl::Time now,
                          const policy::PolicyInForce& in_force, RightsizingPassReport& report);

  RightsizingPassStores stores_;
  RightsizingPassOptions options_;
  const Clock* clock_;
};

}  // namespace fleetcap::optimizer
