#pragma once
// Picking rows out of what a stored-rows reader returned (stored_usage.h,
// stored_inventory.h, ...): the readers answer one question each, whole, and
// a test narrows the answer here rather than in SQL of its own.

#include <vector>

namespace fleetcap::testing {

// The rows of `rows` that `keep` selects, in their order.
template <typename T, typename Keep>
std::vector<T> RowsWhere(const std::vector<T>& rows, Keep keep) {
  std::vector<T> out;
  for (const T& row : rows) {
    if (keep(row)) out.push_back(row);
  }
  return out;
}

}  // namespace fleetcap::testing
