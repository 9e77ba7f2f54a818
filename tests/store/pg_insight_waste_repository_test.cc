// PgInsightWasteRepository keeps the same contract as the in-memory form, on
// a fresh database per test; the chargeback's recompute marks mark the waste
// hours too (fleetcap_mark_waste_recompute), and the schema refuses a piece
// that leaves its hour even from a writer that skips the validation.

#include "store/pg_insight_waste_repository.h"

#include <gtest/gtest.h>

#include "pqxx/pqxx"
#include "store/insight_waste_contract.h"
#include "store/pg_chargeback_repository.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using insight_waste_contract::Hour;

class PgInsightWasteTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgInsightWasteRepository>(pool());
  }
  InsightWasteRepository& repo() { return *repo_; }

  std::unique_ptr<PgInsightWasteRepository> repo_;
};

FLEETCAP_INSIGHT_WASTE_CONTRACT_TESTS(PgInsightWasteTest)

TEST_F(PgInsightWasteTest, AnHourMarkedForTheChargebackIsMarkedForWaste) {
  PgChargebackRepository chargeback(pool());
  ASSERT_THAT(chargeback.AdvanceWatermark("c1", Hour(10)), IsOk());
  ASSERT_THAT(chargeback.AdvanceWatermark("", Hour(10)), IsOk());
  ASSERT_THAT(chargeback.MarkForRecompute("c1", {Hour(2), Hour(3)}, "late telemetry"), IsOk());
  ASSERT_THAT(chargeback.MarkForRecompute("", {Hour(4)}, "policy"), IsOk());
  auto marks = repo_->Marks("c1", Hour(10), 10);
  ASSERT_THAT(marks, IsOk());
  ASSERT_EQ(marks->size(), 2u);
  EXPECT_EQ((*marks)[0].hour, Hour(2));
  EXPECT_EQ((*marks)[1].hour, Hour(3));
  auto fleet = repo_->Marks("", Hour(10), 10);
  ASSERT_THAT(fleet, IsOk());
  EXPECT_TRUE(fleet->empty()) << "the fixed lines' marks change no waste";
}

TEST_F(PgInsightWasteTest, TheSchemaRefusesAPieceOutsideItsHour) {
  ASSERT_THAT(repo_->ReplaceHours("c1", Hour(0), Hour(1), {insight_waste_contract::Piece("c1", "p1", 0, 0, 60)}, {}),
              IsOk());
  pqxx::work txn(*conn_);
  EXPECT_THROW(txn.exec("UPDATE insight_waste_runs SET end_at = end_at + interval '1 minute'"), pqxx::check_violation);
}

}  // namespace
}  // namespace fleetcap::store
