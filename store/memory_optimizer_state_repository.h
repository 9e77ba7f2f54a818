#pragma once
// OptimizerStateRepository in memory, for unit tests.

#include <cstdint>
#include <mutex>

#include "store/optimizer_state_repository.h"

namespace fleetcap::store {

class MemoryOptimizerStateRepository : public OptimizerStateRepository {
 public:
  absl::StatusOr<int32_t> LastPolicyVersion() override;
  absl::Status SeenPolicyVersion(int32_t version) override;

 private:
  std::mutex mu_;
  int32_t last_ = 0;
};

}  // namespace fleetcap::store
