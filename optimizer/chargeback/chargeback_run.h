#pragma once
// One pass of the optimizer (docs/attribution.md, "The optimizer daemon"):
// recompute the hours marked (within the settle window), mark the hours a
// new policy version changes, then compute the closed hours from the fleet's
// watermark in batches, advancing it after each. An hour is computed for the
// whole fleet in one engine run and written per cluster, plus cluster "" for
// the `fixed` lines. Everything goes through the store's repository
// interfaces and `clock`, so a pass is unit-tested in memory.

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
};

struct RunStores {
  FactsSources sources;
  store::UsageRollupRepository* rollups = nullptr;
  store::ChargebackWriteRepository* chargeback = nullptr;
  store::OptimizerStateRepository* state = nullptr;
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

struct PassReport {
  HoursReport computed;                       // all hours computed, recomputations included
  std::map<std::string, int64_t> recomputed;  // hours recomputed, by reason
  int64_t marks_dropped = 0;                  // older than the settle window
  int64_t hours_marked = 0;                   // by new policy versions
  absl::Time closed_through;                  // the end of the newest closed hour
  std::optional<absl::Time> watermark;        // the fleet's, after the pass
};

class ChargebackRun {
 public:
  // Everything must outlive this.
  ChargebackRun(RunStores stores, RunOptions options, const Clock* clock)
      : stores_(stores), options_(options), clock_(clock) {}

  // One pass. `stop` (may be null) is checked between batches.
  absl::StatusOr<PassReport> Pass(const std::atomic<bool>* stop = nullptr);

  // Computes the whole hours [start, end) now and writes their lines,
  // whatever the watermark and settle window (`recompute` on demand).
  absl::StatusOr<HoursReport> ComputeHours(absl::Time start, absl::Time end);

 private:
  absl::Status MarkNewPolicyVersions(absl::Time now, PassReport* report);
  absl::Status RecomputeMarked(absl::Time now, PassReport* report);
  absl::Status CatchUp(absl::Time closed_through, const std::atomic<bool>* stop, PassReport* report);

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
