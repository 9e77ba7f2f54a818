// PgUsageRollupRepository and migration 0012 on a fresh database per test:
// the hourly rollups keep every minute's reading exactly, the statement-level
// triggers on usage_minute track stale hours and, behind the fleet's
// chargeback watermark, mark late telemetry, and those on devices, holds and
// pods mark corrected inventory for exactly the computed hours they touch.

#include "store/pg_usage_rollup_repository.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "pqxx/pqxx"
#include "store/pg_attribution_facts_repository.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_usage_repository.h"
#include "store/usage_contract.h"
#include "store/usage_rollup_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using usage_contract::kHour;
using usage_contract::kMinute;
using usage_contract::kT0;
using usage_contract::PodRow;

const absl::Time kStart = absl::FromUnixMillis(kT0);  // 2026-01-01T00:00:00Z

absl::Time Hour(int h) { return kStart + absl::Hours(h); }
std::string HourText(int h) { return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", Hour(h), absl::UTCTimeZone()); }

class PgUsageRollupTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    usage_ = std::make_unique<PgUsageRepository>(pool(), usage_contract::AtT0());
    rollups_ = std::make_unique<PgUsageRollupRepository>(pool());
    facts_ = std::make_unique<PgAttributionFactsRepository>(pool());
  }

  void Write(const std::vector<UsageMinuteRow>& rows, const std::string& cluster = "c1") {
    auto written = usage_->WriteMinutes(cluster, rows, "pull");
    ASSERT_TRUE(written.ok()) << written.status();
  }
  void Exec(const std::string& sql) { pqxx::nontransaction(*conn_).exec(sql); }
  // The fleet's chargeback watermark: every hour before `through` is computed.
  void SetFleetWatermark(int through_hour) {
    Exec("INSERT INTO chargeback_watermarks (cluster, through) VALUES ('', '" + HourText(through_hour) +
         "') ON CONFLICT (cluster) DO UPDATE SET through = EXCLUDED.through");
  }
  // The recompute marks as hour (from kT0) -> reason, of `cluster`.
  std::map<int, std::string> Marks(const std::string& cluster = "c1") {
    std::map<int, std::string> marks;
    for (const auto& row : pqxx::nontransaction(*conn_).exec_params(
             "SELECT (extract(epoch FROM hour)::bigint * 1000 - $2) / $3, reason FROM chargeback_recompute"
             " WHERE cluster = $1",
             cluster, kT0, kHour)) {
      marks[row[0].as<int>()] = row[1].as<std::string>();
    }
    return marks;
  }
  // usage_hour_changes rows per hour (from kT0) of c1.
  std::map<int, int> Changes() {
    std::map<int, int> changes;
    for (const auto& row : pqxx::nontransaction(*conn_).exec_params(
             "SELECT (extract(epoch FROM hour)::bigint * 1000 - $1) / $2, count(*) FROM usage_hour_changes"
             " WHERE cluster = 'c1' GROUP BY 1",
             kT0, kHour)) {
      changes[row[0].as<int>()] = row[1].as<int>();
    }
    return changes;
  }
  // The transaction that last wrote each usage_hourly row of c1, by "HH pod device".
  std::map<std::string, std::string> RowVersions() {
    std::map<std::string, std::string> versions;
    for (const auto& row : pqxx::nontransaction(*conn_).exec(
             "SELECT to_char(hour AT TIME ZONE 'UTC', 'HH24') || ' ' || pod_uid || ' ' || device_id, xmin::text"
             " FROM usage_hourly"
             " WHERE cluster = 'c1'")) {
      versions[row[0].as<std::string>()] = row[1].as<std::string>();
    }
    return versions;
  }
  std::vector<UsedMinuteRecord> Usage(absl::Time start, absl::Time end) {
    auto read = facts_->Facts("c1", start, end);
    EXPECT_TRUE(read.ok()) << read.status();
    return read.ok() ? read->usage : std::vector<UsedMinuteRecord>{};
  }

  std::unique_ptr<PgUsageRepository> usage_;
  std::unique_ptr<PgUsageRollupRepository> rollups_;
  std::unique_ptr<PgAttributionFactsRepository> facts_;
};

// The contract shared with the in-memory form.
class PgUsageRollupContractTest : public testing::MigratedDatabaseTest {
 public:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    usage_ = std::make_unique<PgUsageRepository>(pool(), usage_contract::AtT0());
    rollups_ = std::make_unique<PgUsageRollupRepository>(pool());
    facts_ = std::make_unique<PgAttributionFactsRepository>(pool());
  }
  UsageWriteRepository& writer() { return *usage_; }
  UsageRollupRepository& rollups() { return *rollups_; }
  std::vector<UsedMinuteRecord> Usage(const std::string& cluster, absl::Time start, absl::Time end) {
    auto read = facts_->Facts(cluster, start, end);
    EXPECT_TRUE(read.ok()) << read.status();
    return read.ok() ? read->usage : std::vector<UsedMinuteRecord>{};
  }

 private:
  std::unique_ptr<PgUsageRepository> usage_;
  std::unique_ptr<PgUsageRollupRepository> rollups_;
  std::unique_ptr<PgAttributionFactsRepository> facts_;
};

FLEETCAP_USAGE_ROLLUP_CONTRACT_TESTS(PgUsageRollupContractTest)

// What the facts held before the rollups: each pod row with a reading, as UsedMilli.
std::vector<UsedMinuteRecord> ExpectedUsage(std::vector<UsageMinuteRow> rows) {
  std::sort(rows.begin(), rows.end(), [](const UsageMinuteRow& a, const UsageMinuteRow& b) {
    return std::tie(a.device_id, a.pod_uid, a.minute_ms) < std::tie(b.device_id, b.pod_uid, b.minute_ms);
  });
  std::vector<UsedMinuteRecord> usage;
  for (const UsageMinuteRow& r : rows) {
    if (r.pod_uid.empty() || !r.util_mean.has_value()) continue;
    usage.push_back({r.pod_uid, r.device_id, absl::FromUnixMillis(r.minute_ms), UsedMilli(*r.util_mean)});
  }
  return usage;
}

TEST_F(PgUsageRollupTest, RolledUpReadingsEqualTheMinutesExactly) {
  std::vector<UsageMinuteRow> rows;
  // Two pods time-sharing GPU-0, minutes at :00 and :59 of two hours, gaps
  // (no row at all, and a row without a reading), readings whose x1000 is a
  // tie or next to one (rounded away from zero, as UsedMilli does).
  const double readings[] = {0.4285, 0.0005, 0.0015, 0.0025, 0.9995, 1, 0, 0.1234567, 0.3333333333, 0.6666666666};
  int i = 0;
  for (int minute : {0, 1, 2, 7, 30, 58, 59, 60, 61, 119}) {
    rows.push_back(PodRow("GPU-0", "uid-a", "a", kT0 + minute * kMinute, readings[i % 10]));
    rows.push_back(PodRow("GPU-0", "uid-b", "b", kT0 + minute * kMinute, readings[(i + 3) % 10]));
    ++i;
  }
  UsageMinuteRow no_reading = PodRow("GPU-0", "uid-a", "a", kT0 + 3 * kMinute, 0.5);
  no_reading.util_mean.reset();
  rows.push_back(no_reading);
  // MIG pods: one GPU's instances are devices of their own.
  rows.push_back(PodRow("MIG-GPU-1/1/0", "uid-c", "c", kT0 + 59 * kMinute, 0.142857));
  rows.push_back(PodRow("MIG-GPU-1/2/0", "uid-d", "d", kT0 + 59 * kMinute, 0.857143));
  rows.push_back(PodRow("MIG-GPU-1/1/0", "uid-c", "c", kT0 + 60 * kMinute, 0.5));
  // The device's own row is not a pod's.
  rows.push_back(usage_contract::Row("GPU-0", kT0, 0.9));
  Write(rows);
  ASSERT_TRUE(rollups_->RollUp("c1", Hour(0), Hour(2)).ok());

  EXPECT_EQ(Usage(Hour(0), Hour(2)), ExpectedUsage(rows));
  // Two hours of GPU-0 x 2 pods, one hour of each MIG pod's device but uid-c's two.
  EXPECT_EQ(pqxx::nontransaction(*conn_).exec("SELECT count(*) FROM usage_hourly")[0][0].as<int>(), 7);
  // A window inside an hour reads only its minutes.
  std::vector<UsedMinuteRecord> inside;
  for (const auto& u : ExpectedUsage(rows)) {
    if (u.minute >= kStart + absl::Minutes(30) && u.minute < kStart + absl::Minutes(61)) inside.push_back(u);
  }
  EXPECT_EQ(Usage(kStart + absl::Minutes(30), kStart + absl::Minutes(61)), inside);
}

TEST_F(PgUsageRollupTest, ALateMinuteMakesItsHourStaleAndBelowTheWatermarkMarksIt) {
  Write({PodRow("GPU-0", "uid-a", "a", kT0, 0.5), PodRow("GPU-0", "uid-a", "a", kT0 + 3 * kHour, 0.5)});
  EXPECT_EQ(Changes(), (std::map<int, int>{{0, 1}, {3, 1}}));
  EXPECT_TRUE(Marks().empty()) << "no watermark, no marks";
  ASSERT_TRUE(rollups_->RollUp("c1", Hour(0), Hour(4)).ok());
  EXPECT_TRUE(Changes().empty());

  SetFleetWatermark(2);
  // Late in hour 0 (computed), in hour 3 (not yet): both stale, only hour 0 marked.
  Write(
      {PodRow("GPU-0", "uid-a", "a", kT0 + 10 * kMinute, 0.25), PodRow("GPU-0", "uid-a", "a", kT0 + 3 * kHour, 0.75)});
  EXPECT_EQ(Changes(), (std::map<int, int>{{0, 1}, {3, 1}}));
  EXPECT_EQ(Marks(), (std::map<int, std::string>{{0, "late telemetry"}}));
  // The device's own rows are not attributed: they change nothing.
  Write({usage_contract::Row("GPU-0", kT0 + kHour, 0.5)});
  EXPECT_EQ(Marks(), (std::map<int, std::string>{{0, "late telemetry"}}));
  EXPECT_EQ(Changes().count(1), 0u);

  // Many rows over one hour in one write: one change row, one mark.
  std::vector<UsageMinuteRow> batch;
  for (int pod = 0; pod < 50; ++pod) {
    for (int minute = 0; minute < 60; ++minute) {
      batch.push_back(
          PodRow("GPU-" + std::to_string(pod), "uid-" + std::to_string(pod), "p", kT0 + kHour + minute * kMinute, 0.5));
    }
  }
  Write(batch);
  EXPECT_EQ(Changes()[1], 1);
  EXPECT_EQ(Marks(), (std::map<int, std::string>{{0, "late telemetry"}, {1, "late telemetry"}}));
  // Another cluster's late minute marks that cluster.
  Write({PodRow("GPU-0", "uid-x", "x", kT0, 0.5)}, "c2");
  EXPECT_EQ(Marks("c2"), (std::map<int, std::string>{{0, "late telemetry"}}));
}

TEST_F(PgUsageRollupTest, AMarkKeepsItsFirstReason) {
  SetFleetWatermark(2);
  Exec("INSERT INTO chargeback_recompute (cluster, hour, reason) VALUES ('c1', '" + HourText(0) + "', 'new price')");
  Write({PodRow("GPU-0", "uid-a", "a", kT0, 0.5)});
  EXPECT_EQ(Marks(), (std::map<int, std::string>{{0, "new price"}}));
}

// Late telemetry of an hour an optimizer has leased and is recomputing from
// the minutes it read before: the completion must leave the hour pending
// (migration 0024), or the late minute would never be charged.
TEST_F(PgUsageRollupTest, LateTelemetryOfALeasedHourSurvivesItsCompletion) {
  SetFleetWatermark(3);
  Write({PodRow("GPU-0", "uid-a", "a", kT0, 0.5), PodRow("GPU-0", "uid-a", "a", kT0 + kHour, 0.5)});
  ASSERT_EQ(Marks(), (std::map<int, std::string>{{0, "late telemetry"}, {1, "late telemetry"}}));
  PgChargebackRepository chargeback(pool());
  const absl::Time now = Hour(10);
  auto leased = chargeback.LeaseRecompute("c1", 10, "a", now, absl::Minutes(5));
  ASSERT_TRUE(leased.ok()) << leased.status();
  ASSERT_EQ(leased->size(), 2u);
  Write({PodRow("GPU-0", "uid-a", "a", kT0 + kHour + 5 * kMinute, 0.25)});  // hour 1, while it is recomputed
  ASSERT_TRUE(chargeback.CompleteRecompute("c1", *leased).ok());
  EXPECT_EQ(Marks(), (std::map<int, std::string>{{1, "late telemetry"}}));
  auto again = chargeback.LeaseRecompute("c1", 10, "b", now + absl::Minutes(1), absl::Minutes(5));
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->size(), 1u);
  EXPECT_EQ((*again)[0].hour, Hour(1));
  // A mark not leased is not written again: its generation stays.
  ASSERT_TRUE(chargeback.CompleteRecompute("c1", *again).ok());
  Write({PodRow("GPU-0", "uid-a", "a", kT0 + 2 * kHour, 0.5)});
  Write({PodRow("GPU-0", "uid-a", "a", kT0 + 2 * kHour + kMinute, 0.5)});
  EXPECT_EQ(pqxx::nontransaction(*conn_)
                .exec("SELECT generation FROM chargeback_recompute WHERE cluster = 'c1' AND hour = '" + HourText(2) +
                      "'")[0][0]
                .as<int64_t>(),
            0);
}

class PgInventoryCorrectionMarksTest : public PgUsageRollupTest {
 protected:
  void SetUp() override {
    PgUsageRollupTest::SetUp();
    if (HasFatalFailure()) return;
    Exec("INSERT INTO clusters VALUES ('c1'), ('c2')");
    Exec("INSERT INTO accelerator_types VALUES ('H100', 'nvidia', 'nvidia.com/gpu')");
    // Known before the hours were computed: no marks (no watermark yet).
    Exec("INSERT INTO devices VALUES ('c1', 'GPU-0', 'node-1', 0, 'H100', '" + HourText(-10) + "', NULL)");
    Exec(
        "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, created_at)"
        " VALUES ('c1', 'uid-a', 'ml', 'a', '', 'Job', 'train', '" +
        HourText(-10) + "')");
    Exec("INSERT INTO holds VALUES ('c1', 'uid-a', 'GPU-0', 1000, '" + HourText(-3) + "', NULL)");
    EXPECT_TRUE(Marks().empty());
    SetFleetWatermark(5);  // hours -inf..4 computed
  }
  std::set<int> MarkedHours(const std::string& cluster = "c1") {
    std::set<int> hours;
    for (const auto& [hour, reason] : Marks(cluster)) {
      EXPECT_EQ(reason, "corrected inventory") << hour;
      hours.insert(hour);
    }
    return hours;
  }
  static std::string At(int hour, int minute) {
    return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", Hour(hour) + absl::Minutes(minute), absl::UTCTimeZone());
  }
};

TEST_F(PgInventoryCorrectionMarksTest, AHoldInsertedInThePastMarksTheComputedHoursItCovers) {
  Exec("INSERT INTO holds VALUES ('c1', 'uid-b', 'GPU-0', 500, '" + At(1, 30) + "', '" + At(3, 0) + "')");
  EXPECT_EQ(MarkedHours(), (std::set<int>{1, 2}));
  Exec("INSERT INTO holds VALUES ('c1', 'uid-c', 'GPU-0', 500, '" + At(4, 59) + "', NULL)");
  EXPECT_EQ(MarkedHours(), (std::set<int>{1, 2, 4}));
  EXPECT_TRUE(MarkedHours("c2").empty());
}

TEST_F(PgInventoryCorrectionMarksTest, WritesAboveTheWatermarkMarkNothing) {
  Exec("INSERT INTO holds VALUES ('c1', 'uid-b', 'GPU-0', 500, '" + At(5, 0) + "', NULL)");
  Exec("INSERT INTO devices VALUES ('c1', 'GPU-1', 'node-1', 1, 'H100', '" + At(6, 0) + "', NULL)");
  Exec("UPDATE holds SET held_to = '" + At(7, 0) + "' WHERE pod_uid = 'uid-b'");
  Exec("UPDATE devices SET in_service_to = '" + At(8, 0) + "' WHERE device_id = 'GPU-1'");
  // Closing an open hold at a time still to come touches no computed hour.
  Exec("UPDATE holds SET held_to = '" + At(9, 0) + "' WHERE pod_uid = 'uid-a'");
  // Nor does what the facts do not read of a pod.
  Exec("UPDATE pods SET phase = 'Succeeded', deleted_at = '" + At(1, 0) + "'");
  EXPECT_TRUE(Marks().empty());
}

TEST_F(PgInventoryCorrectionMarksTest, AHoldEndedInThePastMarksTheHoursFromItsEndToTheWatermark) {
  Exec("UPDATE holds SET held_to = '" + At(2, 15) + "' WHERE pod_uid = 'uid-a'");
  EXPECT_EQ(MarkedHours(), (std::set<int>{2, 3, 4}));
}

TEST_F(PgInventoryCorrectionMarksTest, ACorrectedShareMarksEveryComputedHourOfTheHold) {
  Exec("UPDATE holds SET milli = 500 WHERE pod_uid = 'uid-a'");
  EXPECT_EQ(MarkedHours(), (std::set<int>{-3, -2, -1, 0, 1, 2, 3, 4}));
}

TEST_F(PgInventoryCorrectionMarksTest, DevicesInsertedEndedOrDeletedMarkTheirComputedHours) {
  Exec("INSERT INTO devices VALUES ('c1', 'GPU-1', 'node-1', 1, 'H100', '" + At(3, 10) + "', '" + At(3, 20) + "')");
  EXPECT_EQ(MarkedHours(), (std::set<int>{3}));
  Exec("UPDATE devices SET in_service_to = '" + At(4, 0) + "' WHERE device_id = 'GPU-0'");
  EXPECT_EQ(MarkedHours(), (std::set<int>{3, 4}));
  Exec("DELETE FROM chargeback_recompute");
  Exec("DELETE FROM devices WHERE device_id = 'GPU-1'");
  EXPECT_EQ(MarkedHours(), (std::set<int>{3}));
}

TEST_F(PgInventoryCorrectionMarksTest, APodsCorrectedNamespaceMarksTheComputedHoursOfItsHolds) {
  Exec("UPDATE pods SET namespace = 'web' WHERE pod_uid = 'uid-a'");
  EXPECT_EQ(MarkedHours(), (std::set<int>{-3, -2, -1, 0, 1, 2, 3, 4}));
  Exec("DELETE FROM chargeback_recompute");
  // A pod the inventory did not know yet, whose hold it knew.
  Exec("INSERT INTO holds VALUES ('c1', 'uid-z', 'GPU-0', 250, '" + At(5, 0) + "', NULL)");
  Exec("UPDATE holds SET held_from = '" + At(4, 30) + "' WHERE pod_uid = 'uid-z'");
  EXPECT_EQ(MarkedHours(), (std::set<int>{4}));
  Exec("DELETE FROM chargeback_recompute");
  Exec(
      "INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, created_at)"
      " VALUES ('c1', 'uid-z', 'ml', 'z', '', 'Pod', 'z', '" +
      HourText(3) + "')");
  EXPECT_EQ(MarkedHours(), (std::set<int>{4}));
}

TEST_F(PgUsageRollupTest, RollUpIsIdempotentAndLeavesFreshHoursAlone) {
  Write({PodRow("GPU-0", "uid-a", "a", kT0, 0.5), PodRow("GPU-0", "uid-a", "a", kT0 + kHour, 0.25),
         PodRow("GPU-0", "uid-b", "b", kT0 + kHour + kMinute, 0.75)});
  ASSERT_TRUE(rollups_->RollUp("c1", Hour(0), Hour(2)).ok());
  const auto first = RowVersions();
  const auto usage = Usage(Hour(0), Hour(2));
  ASSERT_EQ(first.size(), 3u);
  ASSERT_TRUE(rollups_->RollUp("c1", Hour(0), Hour(2)).ok());
  EXPECT_EQ(RowVersions(), first) << "nothing stale, nothing rewritten";
  EXPECT_EQ(Usage(Hour(0), Hour(2)), usage);

  // A late minute in hour 1: only hour 1 is rolled up again.
  Write({PodRow("GPU-0", "uid-a", "a", kT0 + kHour + 2 * kMinute, 1)});
  ASSERT_TRUE(rollups_->RollUp("c1", Hour(0), Hour(2)).ok());
  const auto second = RowVersions();
  for (const auto& [key, version] : second) {
    if (key.rfind("00 ", 0) == 0) {
      EXPECT_EQ(version, first.at(key)) << key;
    } else {
      EXPECT_NE(version, first.at(key)) << key;
    }
  }
  EXPECT_EQ(Usage(Hour(1), Hour(2)).size(), 3u);
  EXPECT_TRUE(Changes().empty());

  // A window that leaves the stale hour out leaves it stale.
  Write({PodRow("GPU-0", "uid-a", "a", kT0 + 2 * kHour, 1)});
  ASSERT_TRUE(rollups_->RollUp("c1", Hour(0), Hour(2)).ok());
  EXPECT_EQ(Changes(), (std::map<int, int>{{2, 1}}));
  EXPECT_TRUE(Usage(Hour(2), Hour(3)).empty());
}

}  // namespace
}  // namespace fleetcap::store
