#pragma once
// The lines of one hour as the attribution engine makes them, each with the
// ids it is ordered by, and the name order they go out in. Internal to the
// engine.

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "optimizer/attribution/attribution_lines.h"

namespace fleetcap::attribution::internal {

// A line's place in the hour's name order.
struct OrderedLine {
  std::array<uint32_t, 6> key;  // cluster, model, team, namespace, workload, kind: name order
  size_t line;                  // index into the lines as made
};

// Kinds in name order: fixed, idle, shared, workload.
inline constexpr uint32_t kWorkloadKindOrder = 3;

class HourLineSet {
 public:
  void Clear() {
    order_.clear();
    lines_.clear();
  }
  // The index the next line added gets.
  size_t next() const { return lines_.size(); }
  // Adds a line and the ids it is ordered by.
  void Add(ChargeLine line, uint32_t cluster, uint32_t model, uint32_t team, uint32_t ns, uint32_t workload) {
    const uint32_t kind = line.line_kind == kFixedLine    ? 0
                          : line.line_kind == kIdleLine   ? 1
                          : line.line_kind == kSharedLine ? 2
                                                          : kWorkloadKindOrder;
    order_.push_back({{cluster, model, team, ns, workload, kind}, lines_.size()});
    lines_.push_back(std::move(line));
  }
  const std::vector<OrderedLine>& order() const { return order_; }
  const ChargeLine& line(size_t i) const { return lines_[i]; }
  // Sorts the lines into name order; order() then gives it.
  void Sort() {
    std::sort(order_.begin(), order_.end(), [](const OrderedLine& a, const OrderedLine& b) { return a.key < b.key; });
  }
  // The lines in order (after Sort), moved out.
  std::vector<ChargeLine> Take() {
    std::vector<ChargeLine> out;
    out.reserve(order_.size());
    for (const OrderedLine& o : order_) out.push_back(std::move(lines_[o.line]));
    return out;
  }

 private:
  std::vector<OrderedLine> order_;
  std::vector<ChargeLine> lines_;
};

}  // namespace fleetcap::attribution::internal
