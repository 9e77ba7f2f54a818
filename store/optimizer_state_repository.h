#pragma once
// What the optimizer remembers between passes besides its watermark
// (store/chargeback_repository.h): the newest policy version it has seen.

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace fleetcap::store {

class OptimizerStateRepository {
 public:
  virtual ~OptimizerStateRepository() = default;

  // 0 before the first SeenPolicyVersion.
  virtual absl::StatusOr<int32_t> LastPolicyVersion() = 0;
  // Remembers `version` (>= 0) as the newest seen.
  virtual absl::Status SeenPolicyVersion(int32_t version) = 0;
};

}  // namespace fleetcap::store
