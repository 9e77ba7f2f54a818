#pragma once
// One pass of the optimizer (docs/attribution.md, "The optimizer daemon"):
// recompute the hours marked (within the settle window; the marks leased,
// removed only once their hours are stored), mark the hours a
// new policy version changes, then compute the closed hours from the
// watermark in batches, advancing it after each.
//
// The work is divided by cluster (docs/scaling.md, "The optimizer shares work
// by cluster"): a cluster's lines depend on its own facts only, so each
// cluster is computed by itself under its own watermark and recompute marks
// (ClusterPass), and several optimizer instances can take different clusters
// at once. The `fixed` lines (cluster "") spread over the teams of the whole
// fleet come after, from the lines the clusters stored, under the fleet's
// watermark, which follows the slowest cluster (FleetPass); marking the hours
// a new policy changes is fleet work too (MarkPolicyChanges). Pass does all
// three, as one instance alone. Everything goes through the store's
// repository interfaces and `clock`, so a pass is unit-tested in memory.

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "optimizer/chargeback/window_loader.h"
#include "store/chargeback_repository.h"
#include "store/optimizer_state_repository.h"
#include "store/usage_rollup_repository.h"

namespace fleetcap::chargeback {

// The cluster the fleet's watermark, its `fixed` lines and policy marks are kept under.
inline constexpr const char* kFleet = "";

struct RunOptions {
  absl::Duration close_delay = absl::Minutes(10);
  int batch_hours = 24;
  absl::Duration settle_window = absl::Hours(72);
  // How long the recompute marks a pass leases stay its own: past it, another
  // instance takes the marks of a pass that died. Longer than a pass takes to
  // recompute its marked hours, or two instances may compute them at once.
  absl::Duration recompute_lease = absl::Minutes(15);
  std::string holder = "optimizer";  // who leases the marks (host:pid), for the operator
};

struct RunStores {
  FactsSources sources;
  store::UsageRollupRepository* rollups = nullptr;
  store::ChargebackWriteRepository* chargeback = nullptr;
  store::OptimizerStateRepository* state = nullptr;
  const store::ChargebackReadRepository* charges = nullptr;  // the teams' charges the fixed lines are spread by
};

// What computing some hours found.
struct HoursReport {
  int64_t hours = 0;
  int64_t total_cost_micro = 0;
  int64_t lines = 0;
  int64_t rejected_facts = 0;
  int64_t unpriced_device_seconds = 0;
  int64_t over_held_spans = 0;
};

// Adds `add` to `sum`.
void Accumulate(const HoursReport& add, HoursReport* sum);

// What a pass (or the part of one an instance did) found. Hours count a
// cluster's hours: an hour of three clusters is three.
struct PassReport {
  absl::Time now;                             // when the pass began
  absl::Time closed_through;                  // the end of the newest closed hour
  HoursReport computed;                       // all hours computed, recomputations and fixed lines included
  std::map<std::string, int64_t> recomputed;  // cluster hours recomputed, by reason
  int64_t marks_dropped = 0;                  // older than the settle window
  int64_t hours_marked = 0;                   // cluster hours marked by new policy versions
  std::optional<absl::Time> watermark;        // the fleet's, after FleetPass
};

class ChargebackRun {
 public:
  // Everything must outlive this.
  ChargebackRun(RunStores stores, RunOptions options, const Clock* clock)
      : stores_(stores), options_(options), clock_(clock) {}

  // One whole pass: MarkPolicyChanges, ClusterPass of every cluster, FleetPass.
  // `stop` (may be null) is checked between batches.
  absl::StatusOr<PassReport> Pass(const std::atomic<bool>* stop = nullptr);

  // The parts of a pass. BeginPass reads the clock; the rest add to its report.
  PassReport BeginPass() const;
  // The clusters whose lines are computed: every one the inventory knows, by name.
  absl::StatusOr<std::vector<std::string>> Clusters() const;
  // Fleet work: marks, for every cluster and for the fleet's `fixed` lines,
  // the computed hours that new policy versions charge differently.
  absl::Status MarkPolicyChanges(PassReport* report);
  // One cluster's work: recompute its marked hours, then compute its closed
  // hours from its watermark. Advances only that cluster's watermark and takes
  // only its marks; the hours it recomputes behind the fleet's watermark are
  // marked for the fleet, whose `fixed` lines they change.
  absl::Status ClusterPass(const std::string& cluster, const std::atomic<bool>* stop, PassReport* report);
  // Fleet work: recompute the `fixed` lines of marked hours, then compute them
  // up to the hour every cluster has computed, advancing the fleet's watermark.
  absl::Status FleetPass(const std::atomic<bool>* stop, PassReport* report);

  // Computes the whole hours [start, end) of every cluster, then their `fixed`
  // lines, now, whatever the watermarks and settle window (`recompute` on
  // demand). `hours` counts the hours once, however many clusters.
  absl::StatusOr<HoursReport> ComputeHours(absl::Time start, absl::Time end);
  // The same for one cluster's lines, or for the fleet's `fixed` lines alone.
  absl::StatusOr<HoursReport> ComputeClusterHours(const std::string& cluster, absl::Time start, absl::Time end);
  absl::StatusOr<HoursReport> ComputeFixedHours(absl::Time start, absl::Time end);

 private:
  // The marks of `cluster` (kFleet: of the fixed lines) this pass leases, all of them, by hour.
  absl::StatusOr<std::vector<store::RecomputeMark>> LeaseMarks(const std::string& cluster);
  absl::Status RecomputeMarked(const std::string& cluster, PassReport* report);
  absl::Status CatchUp(const std::string& cluster, const std::atomic<bool>* stop, PassReport* report);
  absl::Status RecomputeFixedMarked(PassReport* report);
  absl::Status CatchUpFixed(const std::atomic<bool>* stop, PassReport* report);
  // Where a cluster's computation starts before it has a watermark: the
  // fleet's watermark if there is one (a cluster new to a running fleet: its
  // earlier hours are marked by the triggers as its inventory arrives), else
  // the hour its first device entered service; nullopt without history.
  absl::StatusOr<std::optional<absl::Time>> StartOf(const std::string& cluster,
                                                    std::optional<absl::Time> first_in_service);

  static constexpr int kLeaseBatch = 1000;  // marks leased in one statement

  RunStores stores_;
  RunOptions options_;
  const Clock* clock_;
};

// The earliest time from which `newer` charges differently from `older`:
// the first second a device of some model and cluster is priced
// differently, else the time `newer` took effect (its teams, options and
// fixed costs apply from then).
absl::Time EarliestChange(const policy::PolicyDocument& older, const policy::PolicyDocument& newer,
                          absl::Time newer_from);

}  // namespace fleetcap::chargeback
