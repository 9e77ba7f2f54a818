#include "store/memory_optimizer_state_repository.h"

namespace fleetcap::store {

absl::StatusOr<int32_t> MemoryOptimizerStateRepository::LastPolicyVersion() {
  std::lock_guard<std::mutex> lock(mu_);
  return last_;
}

absl::Status MemoryOptimizerStateRepository::SeenPolicyVersion(int32_t version) {
  std::lock_guard<std::mutex> lock(mu_);
  last_ = version;
  return absl::OkStatus();
}

}  // namespace fleetcap::store
