#pragma once
// The attribution engine's split of one (cluster, model, hour), a cell: its
// charges gathered into lines by (team, namespace, workload), the idle of
// its devices shared per node or over the cell (cell_split.h), the shared
// namespaces' cost spread, then the cell's fleet cost rounded once and
// apportioned over the lines and each line over its parts. The observer is
// told each step. Internal to the engine.

#include <cstdint>

#include "absl/status/status.h"
#include "optimizer/attribution/attribution_observer.h"
#include "optimizer/attribution/attribution_options.h"
#include "optimizer/attribution/hour_line_set.h"
#include "optimizer/attribution/hour_segmentation.h"
#include "optimizer/attribution/input_index.h"

namespace fleetcap::attribution::internal {

// The cell of work.device_hours[dh_begin, dh_end) and
// work.charges[c_begin, c_end).
struct CellRange {
  size_t dh_begin, dh_end;
  size_t c_begin, c_end;
};

// Adds the cell's lines to `out`. INTERNAL if they would not add up to its
// fleet cost, which every exact split rules out.
absl::Status AttributeCell(const InputIndex& index, const Options& options, int64_t hour, const HourWork& work,
                           const CellRange& cell, AttributionObserver* observer, HourLineSet* out);

}  // namespace fleetcap::attribution::internal
