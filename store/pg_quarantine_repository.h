#pragma once
// The quarantine on PostgreSQL. InsertQuarantine lets a writer set records
// aside in the same transaction as the good rows it stores.

#include <vector>

#include "common/pg_pool.h"
#include "pqxx/transaction"
#include "store/quarantine_repository.h"

namespace fleetcap::store {

// Appends `records` (payloads bounded) within `txn`.
void InsertQuarantine(pqxx::work& txn, const std::vector<QuarantineRecord>& records);

class PgQuarantineRepository : public QuarantineRepository {
 public:
  explicit PgQuarantineRepository(PgPool* pool) : pool_(pool) {}
  absl::Status Add(const std::vector<QuarantineRecord>& records) override;
  absl::StatusOr<std::vector<QuarantineRecord>> List(const std::string& source, const std::string& cluster,
                                                     int limit) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store
