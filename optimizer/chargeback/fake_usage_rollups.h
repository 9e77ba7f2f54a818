#pragma once
// A UsageRollupRepository for unit tests: remembers the windows it was asked
// to roll up, and rolls them up in the memory store the facts read from.

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "store/memory_usage_rollup_repository.h"

namespace fleetcap::chargeback {

class FakeUsageRollups : public store::UsageRollupRepository {
 public:
  // `rollups` must outlive this.
  explicit FakeUsageRollups(store::MemoryUsageRollupRepository* rollups) : rollups_(rollups) {}

  absl::Status RollUp(const std::string& cluster, absl::Time start, absl::Time end) override {
    calls.emplace_back(cluster, start, end);
    return rollups_->RollUp(cluster, start, end);
  }
  std::vector<std::tuple<std::string, absl::Time, absl::Time>> calls;

 private:
  store::MemoryUsageRollupRepository* rollups_;
};

}  // namespace fleetcap::chargeback
