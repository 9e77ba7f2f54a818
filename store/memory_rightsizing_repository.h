#pragma once
// RightsizingRepository in memory, for unit tests.

#include <map>
#include <string>

#include "store/rightsizing_repository.h"

namespace fleetcap::store {

// Not thread-safe.
class MemoryRightsizingRepository : public RightsizingRepository {
 public:
  absl::Status Replace(const RightsizingRun& run) override;
  absl::StatusOr<std::vector<RightsizingRun>> Latest(const RightsizingFilter& filter) const override;

 private:
  std::map<std::string, RightsizingRun> runs_;  // by cluster
};

}  // namespace fleetcap::store
