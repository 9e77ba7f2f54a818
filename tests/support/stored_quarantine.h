#pragma once
// The records set aside in a test's database, read through the store's own
// QuarantineRepository, oldest first.

#include <string>
#include <vector>

#include "store/quarantine_repository.h"

namespace fleetcap::testing {

// Every record set aside in the database at `db_uri` whose source and cluster
// match (empty matches any), in the order they were set aside. Fails the
// test (an empty list) when the store cannot be read.
std::vector<store::QuarantineRecord> QuarantinedRecords(const std::string& db_uri, const std::string& source = "",
                                                        const std::string& cluster = "");

}  // namespace fleetcap::testing
