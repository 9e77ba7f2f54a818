#pragma once
// The fixture of the tests that hold the reads of holds to their indexes
// (tests/store/instant_plans_test.cc, asset_plans_test.cc): a migrated
// database seeded with 60 days of holds of 240 devices ending at `now_`
// (seeded_hold_history.h), analysed, and the plan of a read on it.

#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "tests/support/query_plan.h"
#include "tests/support/seeded_hold_history.h"
#include "tests/support/test_database.h"

namespace fleetcap::testing {

class HoldHistoryPlansTest : public MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    {
      pqxx::work txn(*conn_);
      SeedHoldHistory(txn, shape_, now_);
      txn.commit();
    }
    // The planner's statistics of the seeded rows, as a live database keeps them.
    pqxx::nontransaction(*conn_).exec("VACUUM ANALYZE");
  }

  // The nodes of the plan of `sql` with its parameters (query_plan.h).
  template <typename... Params>
  std::multiset<std::string> ExplainedPlan(const std::string& sql, Params&&... params) {
    pqxx::nontransaction txn(*conn_);
    const pqxx::result rows = txn.exec_params("EXPLAIN (FORMAT JSON) " + sql, std::forward<Params>(params)...);
    return PlanNodes(rows[0][0].as<std::string>());
  }

  static HoldHistoryShape Shape() {
    HoldHistoryShape shape;
    shape.devices = 240;
    shape.days = 60;
    return shape;
  }

  const HoldHistoryShape shape_ = Shape();
  const absl::Time now_ = absl::FromUnixSeconds(1767225600);  // 2026-01-01
};

}  // namespace fleetcap::testing
