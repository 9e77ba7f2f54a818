#pragma once
// What the attribution engine tells an observer while it makes an hour's
// lines, at named points: the input indexed, an hour begun, how a cell's
// charges fall into lines, how its idle was shared and its shared
// namespaces' cost spread, each line made, the hour's lines in order. The
// default does nothing; the explanation (explaining_observer.h) records it.
// An observer only watches: nothing it does changes a line. Internal to the
// engine.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_lines.h"
#include "optimizer/attribution/cell_split.h"
#include "optimizer/attribution/hour_line_set.h"
#include "optimizer/attribution/hour_segmentation.h"
#include "optimizer/attribution/input_index.h"

namespace fleetcap::attribution::internal {

// The cell being split: a (cluster, model) of the hour, whose charges start
// at work->charges[first_charge].
struct CellView {
  int64_t hour;
  const HourWork* work;
  size_t first_charge;
};

// The idle of one scope shared over the cell's lines.
struct IdleShare {
  std::optional<uint32_t> node;                          // none: the whole cluster
  Int128 idle;                                           // the scope's idle, not 0
  const std::vector<std::pair<size_t, Int128>>& takers;  // (line, charge in scope)
  const std::vector<Int128>& idle_before;                // each line's idle before
  Int128 kept_before;                                    // kept before
  const std::vector<CellLine>& lines;                    // after
  Int128 kept;                                           // after
};

// The exact weights a cell's rounded cost was split by.
struct CellCost {
  Int128 capacity;  // the cell's weight
  int64_t cost;     // its fleet cost, rounded once
};

class AttributionObserver {
 public:
  virtual ~AttributionObserver() = default;
  // The input is indexed: its names have their ids from here on.
  virtual void Indexed(const InputIndex& /*index*/) {}
  // The lines of the hour starting at `hour` are about to be made.
  virtual void HourStarted(int64_t /*hour*/) {}
  // Whether to be told how the lines of (cluster, model) are made: the calls
  // about a cell come only for the cells wanted.
  virtual bool WantsCell(uint32_t /*cluster*/, uint32_t /*model*/) const { return false; }
  virtual void CellStarted(const CellView& /*cell*/) {}
  // The cell's next charge (in charge order) is on the cell's line `line`.
  virtual void ChargeOnLine(size_t /*line*/) {}
  // The cell has `lines` lines.
  virtual void CellLinesGathered(size_t /*lines*/) {}
  virtual void IdleShared(const IdleShare& /*share*/) {}
  // The shared namespaces' cost was spread: each line's charge and idle
  // before, and the lines after.
  virtual void SharedSpread(const std::vector<Int128>& /*before*/, const std::vector<CellLine>& /*lines*/) {}
  // The hour's line `line_index` was made from the cell's line `cell_line`.
  virtual void CellLineMade(size_t /*line_index*/, size_t /*cell_line*/, const ChargeLine& /*line*/,
                            const std::vector<CellLine>& /*lines*/, const CellCost& /*cost*/) {}
  // The hour's line `line_index` is the cell's idle line, of `kept`.
  virtual void IdleLineMade(size_t /*line_index*/, const ChargeLine& /*line*/, Int128 /*kept*/,
                            const CellCost& /*cost*/) {}
  // The hour's line `line_index` is `team`'s part of `hour_amount` of fixed
  // costs, by its weight `team_weight` of `weight_sum`.
  virtual void FixedLineMade(size_t /*line_index*/, uint32_t /*team*/, const ChargeLine& /*line*/,
                             int64_t /*hour_amount*/, int64_t /*team_weight*/, int64_t /*weight_sum*/) {}
  // The hour's lines are in name order.
  virtual void HourOrdered(int64_t /*hour*/, const std::vector<OrderedLine>& /*order*/) {}
};

}  // namespace fleetcap::attribution::internal
