#pragma once
// The chargeback lines of a window as the optimizer computes them (the window
// loaded, attributed hour by hour, each line as its stored record), for tests
// that compare what is stored or served with a fresh computation.

#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/chargeback/window_loader.h"
#include "store/chargeback_repository.h"

namespace fleetcap::testing {

// Every cluster's lines of [start, end) from `sources`, in the engine's order.
absl::StatusOr<std::vector<store::ChargebackLineRecord>> WindowLines(const chargeback::FactsSources& sources,
                                                                     absl::Time start, absl::Time end);

}  // namespace fleetcap::testing
