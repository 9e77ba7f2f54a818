#pragma once
// The optimizer's allocation run (docs/allocation.md, "The optimizer
// daemon"): after an attribution pass, measure each team's demand from the
// stored history (held hours behind the chargeback watermark, pods pending
// now), solve the allocation of the policy in force, and store the run with
// what it was computed from. A run whose inputs (policy version, chargeback
// watermark, the demand formula's options) equal the latest stored run's is
// not repeated until `interval` has passed since it (pending pods change
// with time alone). Loader (planning_state/demand_history_loader.h), pure
// builder (allocation_run_builder.h), writer (this pass). Everything goes
// through the store's repository interfaces and a Clock, so it is
// unit-tested in memory.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "optimizer/allocation/measured_demand.h"
#include "optimizer/allocation/policy_engine.h"
#include "optimizer/teams/team_directory.h"
#include "policy/policy_timeline.h"
#include "store/allocation_run_repository.h"
#include "store/demand_history_repository.h"
#include "store/team_facts_repository.h"

namespace fleetcap::optimizer {

struct AllocationPassOptions {
  allocation::MeasuredDemandOptions demand;
  absl::Duration interval = absl::Hours(1);  // the longest time between runs when nothing changed
  int64_t max_pending_pods = 100'000;        // the most waiting pods one run reads (the oldest)
};

class AllocationPassStores {
 public:
  AllocationPassStores() = default;
  // Over the team directory the process shares (its policy versions, and the
  // namespace evidence of pending pods).
  AllocationPassStores(store::DemandHistoryRepository* demand_history, teams::TeamDirectory* shared_directory,
                       store::AllocationRunRepository* allocation_runs)
      : history(demand_history), directory(shared_directory), runs(allocation_runs) {}
  // Over a directory of its own on `team_facts` and `policies`, made once here.
  AllocationPassStores(store::DemandHistoryRepository* demand_history, store::TeamFactsRepository* team_facts,
                       policy::PolicyTimeline* policies, store::AllocationRunRepository* allocation_runs)
      : history(demand_history),
        runs(allocation_runs),
        own_directory_(std::make_shared<teams::TeamDirectory>(team_facts, policies)) {
    directory = own_directory_.get();
  }

  store::DemandHistoryRepository* history = nullptr;
  teams::TeamDirectory* directory = nullptr;
  store::AllocationRunRepository* runs = nullptr;

 private:
  std::shared_ptr<teams::TeamDirectory> own_directory_;
};

struct AllocationReport {
  std::optional<int64_t> run_id;  // none: not run (see `skipped`)
  std::string skipped;            // why not: "no policy", "unchanged"
  int64_t recommendations = 0;
  allocation::UnplacedDemand unplaced;
};

class AllocationPass {
 public:
  // Everything must outlive this.
  AllocationPass(AllocationPassStores stores, AllocationPassOptions options, const Clock* clock)
      : stores_(stores), options_(options), clock_(clock) {}

  // One run, unless the latest stored one has the same inputs and is younger
  // than the interval. `watermark`: the fleet's chargeback watermark (none
  // before the first hour is computed: no held history yet).
  absl::StatusOr<AllocationReport> Run(std::optional<absl::Time> watermark);

  // The inputs a run records (a JSON object in the store's canonical form),
  // equal for equal inputs; `engine` is the one the policy chose
  // (allocation::EngineForPolicy).
  std::string InputsJson(int32_t policy_version, std::optional<absl::Time> watermark,
                         allocation::AllocationEngine engine) const;

 private:
  struct LastRun {
    int64_t run_id = 0;
    std::string inputs_json;
    absl::Time computed_at;
  };

  AllocationPassStores stores_;
  AllocationPassOptions options_;
  const Clock* clock_;
  std::optional<LastRun> last_;  // the latest stored run, as far as this pass knows
};

}  // namespace fleetcap::optimizer
