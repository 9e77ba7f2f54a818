#pragma once
// Until the PostgreSQL usage rollups are built (store/usage_rollup_repository.h),
// the attribution facts read usage_minute directly: there is nothing to roll up.

#include "store/usage_rollup_repository.h"

namespace fleetcap::optimizer {

class MinutesReadDirectly : public store::UsageRollupRepository {
 public:
  absl::Status RollUp(const std::string&, absl::Time, absl::Time) override { return absl::OkStatus(); }
};

}  // namespace fleetcap::optimizer
