#pragma once
// ScenarioRepository in memory, for unit tests.

#include <cstdint>
#include <optional>
#include <vector>

#include "store/scenario_repository.h"

namespace fleetcap::store {

// Not thread-safe.
class MemoryScenarioRepository : public ScenarioRepository {
 public:
  absl::StatusOr<int64_t> Save(const ScenarioDraft& draft) override;
  absl::StatusOr<std::vector<ScenarioSummary>> List(int64_t before_id, int64_t limit) override;
  absl::StatusOr<ScenarioRecord> Get(int64_t scenario_id) override;

 private:
  std::vector<ScenarioRecord> saved_;  // in id order
};

}  // namespace fleetcap::store
