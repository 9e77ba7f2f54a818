#pragma once
// A table's contents in a form two databases can be compared by: the tests
// that check a run against the same run done otherwise (several clusters at
// once, a failover) compare these.

#include <string>

#include "pqxx/pqxx"

namespace fleetcap::testing {

// The rows of `table`, sorted, as JSON lines without the columns whose
// default is filled by the database (now(), a sequence): those differ between
// two runs by design.
std::string TableRows(pqxx::connection& conn, const std::string& table);

}  // namespace fleetcap::testing
