#pragma once
// Stored facts -> what the waste engine reads, for one cluster, a part at a
// time: the holds the chargeback reads (each split where the policy gives
// its pod another team, with its device's model) are loaded whole (a few
// hundred bytes a hold) and cut into batches of whole workloads; each
// batch's per-minute readings of duty cycle and SM activity (usage_minute,
// its pods' rows of its devices) are loaded with it and dropped after it, so
// the pass holds one batch's readings at a time however large the cluster.

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/chargeback/window_loader.h"
#include "optimizer/insights/waste_facts.h"
#include "store/usage_repository.h"

namespace fleetcap::optimizer {

// The holds of `cluster` over the whole hours [from, end), with the newest
// policy's prices and insights options, ordered by (namespace, workload,
// pod_uid) so that a workload's holds follow one another.
struct WasteHolds {
  std::vector<insights::WasteHold> holds;
  std::vector<policy::Price> prices;
  policy::InsightOptions options;
};
absl::StatusOr<WasteHolds> LoadWasteHolds(const chargeback::FactsSources& sources, const std::string& cluster,
                                          absl::Time from, absl::Time end);

// `holds` cut into consecutive batches [first, last) of whole workloads
// (namespace, workload): each closes once it has `batch_holds` holds or more,
// so a workload's hours are summed within one batch (each batch's workload
// hours are whole) and a workload larger than `batch_holds` is a batch of its own.
struct HoldBatch {
  size_t first = 0, last = 0;
};
std::vector<HoldBatch> WorkloadBatches(const std::vector<insights::WasteHold>& holds, size_t batch_holds);

// The readings of the pods of holds[batch] on their devices over [from, end).
absl::StatusOr<std::vector<insights::ActivityReading>> LoadBatchReadings(const store::UsageReadRepository& usage,
                                                                         const std::string& cluster,
                                                                         const std::vector<insights::WasteHold>& holds,
                                                                         HoldBatch batch, absl::Time from,
                                                                         absl::Time end);

}  // namespace fleetcap::optimizer
