#pragma once
// A UsageRollupRepository for unit tests: remembers the windows it was asked
// to roll up (the memory facts repository reads minutes directly).

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "store/usage_rollup_repository.h"

namespace fleetcap::chargeback {

class FakeUsageRollups : public store::UsageRollupRepository {
 public:
  absl::Status RollUp(const std::string& cluster, absl::Time start, absl::Time end) override {
    calls.emplace_back(cluster, start, end);
    return absl::OkStatus();
  }
  std::vector<std::tuple<std::string, absl::Time, absl::Time>> calls;
};

}  // namespace fleetcap::chargeback
