#pragma once
// The quarantine in memory, for unit tests: the same contract as
// PgQuarantineRepository, behind one mutex.

#include <mutex>
#include <vector>

#include "store/quarantine_repository.h"

namespace fleetcap::store {

class MemoryQuarantineRepository : public QuarantineRepository {
 public:
  absl::Status Add(const std::vector<QuarantineRecord>& records) override;
  absl::StatusOr<std::vector<QuarantineRecord>> List(const std::string& source, const std::string& cluster,
                                                     int limit) override;

 private:
  std::mutex mu_;
  std::vector<QuarantineRecord> records_;  // oldest first
};

}  // namespace fleetcap::store
