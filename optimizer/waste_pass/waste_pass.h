#pragma once
// The optimizer's waste pass (docs/insights.md, "How it is computed"): after
// the chargeback pass, for each cluster, the waste and efficiency of the
// hours the chargeback has computed and the waste pass has not, in batches
// of hours, each read and computed in batches of whole workloads
// (waste_loader.h) and replaced at once, then of the hours marked to compute again (every hour the chargeback is
// marked for). Each write replaces whole hours and re-reads `idle_for` of
// history before them, so a run crossing their start is judged whole:
//
// - a batch [start, end) writes [start - I, end), I being idle_for in whole
//   hours: a run that began in the I hours before `start` and only now lasts
//   idle_for gets its first hours written too;
// - a marked hour h writes [h - I, h + 1h + I): a run that crosses it is
//   rewritten where its judgement could change.
//
// Everything goes through the store's repository interfaces, so the pass is
// unit-tested on the memory ones.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/chargeback/window_loader.h"
#include "store/chargeback_repository.h"
#include "store/insight_waste_repository.h"
#include "store/usage_repository.h"

namespace fleetcap::optimizer {

struct WastePassOptions {
  int batch_hours = 24;   // the most hours one engine run writes, besides the I hours before
  int mark_batch = 1000;  // marks read at once
  // A cluster's pods are read and computed in batches of whole workloads of
  // about this many holds (a pod's device) each: what bounds the readings
  // held at once (at most ~1.4 MB a hold over a write's 32 hours), whatever the
  // cluster's size. The stored result is the same whatever the size.
  int64_t batch_holds = 200;
};

struct WastePassStores {
  chargeback::FactsSources sources;
  const store::UsageReadRepository* usage = nullptr;
  store::ChargebackWriteRepository* chargeback = nullptr;  // its watermarks: the hours that are closed
  store::InsightWasteRepository* waste = nullptr;
};

struct WasteReport {
  int64_t hours = 0;       // cluster hours written
  int64_t runs = 0;        // idle runs found in them
  int64_t recomputed = 0;  // marked cluster hours computed again
};

class WastePass {
 public:
  // Everything must outlive this.
  WastePass(WastePassStores stores, WastePassOptions options) : stores_(stores), options_(options) {}

  // Every cluster the inventory knows; `stop` (may be null) is checked between batches.
  absl::StatusOr<WasteReport> Run(const std::atomic<bool>* stop = nullptr);
  // One cluster: catch up to its chargeback watermark, then its marked hours.
  absl::Status ClusterPass(const std::string& cluster, const std::atomic<bool>* stop, WasteReport* report);
  // Computes and stores the whole hours [start, end) of `cluster`, runs looked
  // for from idle_for (in whole hours) before `start`.
  absl::Status Write(const std::string& cluster, absl::Time start, absl::Time end, WasteReport* report);

 private:
  absl::Status CatchUp(const std::string& cluster, absl::Time through, const std::atomic<bool>* stop,
                       WasteReport* report);
  absl::Status RecomputeMarked(const std::string& cluster, absl::Time through, WasteReport* report);
  // idle_for of the newest policy, rounded up to whole hours.
  absl::Duration LookbackHours() const;

  WastePassStores stores_;
  WastePassOptions options_;
};

}  // namespace fleetcap::optimizer
