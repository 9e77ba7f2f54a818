#include "tests/support/stored_quarantine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "common/pg_pool.h"
#include "store/pg_quarantine_repository.h"

namespace fleetcap::testing {

std::vector<store::QuarantineRecord> QuarantinedRecords(const std::string& db_uri, const std::string& source,
                                                        const std::string& cluster) {
  auto pool = PgPool::Open(db_uri, 1);
  EXPECT_TRUE(pool.ok()) << pool.status();
  if (!pool.ok()) return {};
  store::PgQuarantineRepository quarantine(pool->get());
  auto records = quarantine.List(source, cluster, std::numeric_limits<int>::max());
  EXPECT_TRUE(records.ok()) << records.status();
  if (!records.ok()) return {};
  std::reverse(records->begin(), records->end());  // List gives the newest first
  return std::move(*records);
}

}  // namespace fleetcap::testing
