#pragma once
// ViewRepository in memory, for unit tests.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "store/view_repository.h"

namespace fleetcap::store {

// Not thread-safe.
class MemoryViewRepository : public ViewRepository {
 public:
  absl::Status Save(const SavedView& view) override;
  absl::StatusOr<std::vector<SavedView>> List(const std::string& owner) override;
  absl::Status Remove(const std::string& owner, const std::string& name) override;

 private:
  std::map<std::pair<std::string, std::string>, SavedView> views_;  // by (owner, name)
};

}  // namespace fleetcap::store
