#pragma once
// Stored facts -> what the waste engine reads, for one cluster: the holds the
// chargeback reads (each split where the policy gives its pod another team,
// with its device's model), the pods' per-minute readings of duty cycle and
// SM activity (usage_minute, pods' rows), and the newest policy's prices and
// insights options.

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/chargeback/window_loader.h"
#include "optimizer/insights/waste_facts.h"
#include "store/usage_repository.h"

namespace fleetcap::optimizer {

// The input for the whole hours [start, end), runs looked for from
// `history_from` (a whole hour at or before `start`).
absl::StatusOr<insights::WasteInput> LoadWasteInput(const chargeback::FactsSources& sources,
                                                    const store::UsageReadRepository& usage, const std::string& cluster,
                                                    absl::Time history_from, absl::Time start, absl::Time end);

}  // namespace fleetcap::optimizer
