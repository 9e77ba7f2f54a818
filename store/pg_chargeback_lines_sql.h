#pragma once
// The query PgChargebackRepository::Lines runs (and RowsRead explains),
// shared with the test that holds its plans to the rollups whose grain fits
// the request and to their indexes (tests/store/long_read_plans_test.cc).

#include <string>

#include "pqxx/pqxx"
#include "store/chargeback_repository.h"

namespace fleetcap::store {

// Runs `prefix` ("" or, say, "EXPLAIN (FORMAT JSON) ") followed by the query
// of Lines(f, g, resolution) in `txn`, and returns its rows.
pqxx::result ExecChargebackLines(pqxx::transaction_base& txn, const std::string& prefix, const ChargebackFilter& f,
                                 const ChargebackGroupBy& g, ChargebackResolution resolution);

}  // namespace fleetcap::store
