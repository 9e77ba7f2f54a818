#include "store/pg_quarantine_repository.h"

#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"

namespace fleetcap::store {

void InsertQuarantine(pqxx::work& txn, const std::vector<QuarantineRecord>& records) {
  for (const QuarantineRecord& r : records) {
    txn.exec_params(
        "INSERT INTO quarantine (source, cluster, object_key, reason, payload, at) "
        "VALUES ($1, $2, $3, $4, $5, to_timestamp($6::double precision / 1000000))",
        r.source, r.cluster, r.object_key, r.reason, BoundedQuarantinePayload(r.payload), absl::ToUnixMicros(r.at));
  }
}

absl::Status PgQuarantineRepository::Add(const std::vector<QuarantineRecord>& records) {
  if (records.empty()) return absl::OkStatus();
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    InsertQuarantine(txn, records);
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("quarantine: add", e);
  }
}

absl::StatusOr<std::vector<QuarantineRecord>> PgQuarantineRepository::List(const std::string& source,
                                                                           const std::string& cluster, int limit) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    pqxx::result rows = txn.exec_params(
        "SELECT id, source, cluster, object_key, reason, payload, "
        "(extract(epoch FROM at) * 1000000)::bigint FROM quarantine "
        "WHERE ($1 = '' OR source = $1) AND ($2 = '' OR cluster = $2) ORDER BY id DESC LIMIT $3",
        source, cluster, limit);
    std::vector<QuarantineRecord> out;
    out.reserve(rows.size());
    for (const pqxx::row& row : rows) {
      QuarantineRecord r;
      r.id = row[0].as<int64_t>();
      r.source = row[1].as<std::string>();
      r.cluster = row[2].as<std::string>();
      r.object_key = row[3].as<std::string>();
      r.reason = row[4].as<std::string>();
      r.payload = row[5].as<std::string>();
      r.at = absl::FromUnixMicros(row[6].as<int64_t>());
      out.push_back(std::move(r));
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("quarantine: list", e);
  }
}

}  // namespace fleetcap::store
