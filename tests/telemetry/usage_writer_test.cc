// UsageWriter on a real PostgreSQL: closed minutes written with the
// remote_write progress, whatever order and split they arrived in; rows
// already there upserted; pods and devices joined to the inventory; rows
// the store cannot hold set aside into the quarantine while the rest is
// written, and a connection lost returned for a retry.

#include "ingest/telemetry/usage_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "common/pg_pool.h"
#include "pqxx/pqxx"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_usage_repository.h"
#include "store/usage_partitions.h"
#include "tests/support/pg_sessions.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_quarantine.h"
#include "tests/support/stored_usage.h"
#include "tests/support/test_database.h"

namespace fleetcap::telemetry {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

constexpr int64_t kT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

CanonicalSeries Make(const std::string& device, const std::string& pod, Field field, std::vector<Point> points) {
  CanonicalSeries s;
  s.key.device_id = device;
  s.key.pod = pod;
  s.key.namespace_ = pod.empty() ? "" : "ml";
  s.key.node = "node-1";
  s.key.model = "H100";
  s.field = field;
  s.points = std::move(points);
  return s;
}

// The store's clock at kT0: the fixed dates here stay inside its retention.
const SimulatedClock kClockAtT0(absl::FromUnixMillis(kT0));
store::UsageStoreOptions AtT0() {
  store::UsageStoreOptions options;
  options.clock = &kClockAtT0;
  return options;
}

// Three minutes of two GPUs at 10 s, a pod on each, energy with a reset.
std::vector<CanonicalSeries> ThreeMinutes() {
  std::vector<CanonicalSeries> out;
  for (int g = 0; g < 2; ++g) {
    const std::string device = "GPU-" + std::to_string(g);
    std::vector<Point> util, power, energy, fb;
    double joules = 1000;
    for (int i = 0; i < 18; ++i) {
      const int64_t t = kT0 + i * 10'000;
      util.push_back({t, 0.01 * ((i * 7 + g * 13) % 100)});
      power.push_back({t, 250.0 + i});
      joules = (i == 9) ? 5 : joules + 2500;  // the counter resets once
      energy.push_back({t, joules});
      fb.push_back({t, 1048576.0 * (1000 + i)});
    }
    out.push_back(Make(device, "train-" + std::to_string(g), Field::kUtil, util));
    out.push_back(Make(device, "train-" + std::to_string(g), Field::kMemoryUsed, fb));
    out.push_back(Make(device, "", Field::kPower, power));
    out.push_back(Make(device, "", Field::kEnergy, energy));
  }
  return out;
}

// The remote_write path in miniature: `requests` through a minute window,
// every minute closed, written in one batch.
absl::StatusOr<int64_t> WriteAll(UsageWriter& writer, const std::vector<std::vector<CanonicalSeries>>& requests) {
  MinuteWindow window(absl::ZeroDuration());
  int64_t position = 0;
  for (const auto& request : requests) {
    window.Add(position, position + 1, request, absl::Now());
    ++position;
  }
  return writer.WriteClosed(window.Close(absl::Now(), true), "test-log");
}

class UsageWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = std::move(*db);
    auto pool = PgPool::Open(db_->uri(), 1);
    ASSERT_THAT(pool, IsOk());
    pool_ = std::move(*pool);
    store_ = std::make_unique<store::PgUsageRepository>(pool_.get(), AtT0());
    conn_ = db_->Connect();
  }
  std::vector<std::string> Rows() { return testing::UsageRows(*conn_, "c1"); }
  // c1's row of `device` (pod_uid "" for the whole device) at `minute`.
  store::UsageMinuteRow MinuteRow(const std::string& device, const std::string& pod_uid, absl::Time minute) {
    for (const auto& row : testing::StoredMinutes(*conn_, "c1")) {
      if (row.device_id == device && row.pod_uid == pod_uid && row.minute_ms == absl::ToUnixMillis(minute)) return row;
    }
    ADD_FAILURE() << "no row of " << device << " " << pod_uid << " at " << minute;
    return {};
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<store::PgUsageRepository> store_;
  std::unique_ptr<pqxx::connection> conn_;
};

TEST_F(UsageWriterTest, WritesDeviceAndPodRowsPerMinute) {
  UsageWriter writer(store_.get(), "c1");
  auto result = WriteAll(writer, {ThreeMinutes()});
  ASSERT_THAT(result, IsOk());
  // Per GPU: 3 minutes of the device row and of the pod row.
  EXPECT_EQ(*result, 12);
  EXPECT_EQ(Rows().size(), 12u);
  const absl::Time minute = absl::FromUnixMillis(kT0) + absl::Minutes(1);  // 2026-01-01T00:01:00Z
  const store::UsageMinuteRow row = MinuteRow("GPU-0", "ml/train-0", minute);
  // Samples 6..11 of GPU-0: util (i*7 % 100) / 100.
  double sum = 0, max = 0;
  for (int i = 6; i < 12; ++i) {
    sum += 0.01 * (i * 7 % 100);
    max = std::max(max, 0.01 * (i * 7 % 100));
  }
  EXPECT_NEAR(row.util_mean.value(), sum / 6, 1e-15);
  EXPECT_DOUBLE_EQ(row.util_max.value(), max);
  EXPECT_FALSE(row.power_watts.has_value());  // power is a device-level series: not the pod's
  EXPECT_EQ(row.samples, 6);
  EXPECT_EQ(row.memory_used_bytes.value(), static_cast<int64_t>(std::llround(1048576.0 * (1000 + 8.5))));
  EXPECT_EQ(row.pod, "train-0");
  EXPECT_EQ(row.namespace_, "ml");
  const store::UsageMinuteRow device = MinuteRow("GPU-0", "", minute);
  EXPECT_DOUBLE_EQ(device.power_watts.value(), 250 + 8.5);
  // i = 6..11: +2500 for 6, 7, 8, 10, 11 and 5 after the reset at 9.
  EXPECT_DOUBLE_EQ(device.energy_joules.value(), 5 * 2500 + 5);
  EXPECT_NEAR(device.util_mean.value(), sum / 6, 1e-15);  // from the pod's series
}

TEST_F(UsageWriterTest, ReorderedSplitAndRepeatedRequestsYieldIdenticalRows) {
  UsageWriter once(store_.get(), "c1");
  ASSERT_THAT(WriteAll(once, {ThreeMinutes()}), IsOk());
  const auto expected = Rows();
  ASSERT_FALSE(expected.empty());

  // Another cluster: the points shuffled, split into overlapping requests,
  // the last minute first, one request sent twice.
  UsageWriter other(store_.get(), "c2");
  std::mt19937 rng(42);
  std::vector<CanonicalSeries> late, early;
  for (auto s : ThreeMinutes()) {
    std::shuffle(s.points.begin(), s.points.end(), rng);
    CanonicalSeries a = s, b = s;
    a.points.clear();
    b.points.clear();
    for (const Point& p : s.points) {
      (p.ts_ms >= kT0 + 100'000 ? a : b).points.push_back(p);
      if (p.ts_ms % 30'000 == 0) a.points.push_back(p);  // overlap
    }
    late.push_back(a);
    early.push_back(b);
  }
  ASSERT_THAT(WriteAll(other, {late, early, late}), IsOk());
  EXPECT_EQ(testing::UsageRows(*conn_, "c2"), expected);
}

TEST_F(UsageWriterTest, ARowAlreadyStoredIsReplacedNotDuplicated) {
  UsageWriter writer(store_.get(), "c1");
  ASSERT_THAT(WriteAll(writer, {{Make("GPU-9", "", Field::kUtil, {{kT0, 0.2}, {kT0 + 30'000, 0.4}})}}), IsOk());
  // The same minute again, as after a lost log: the row is upserted.
  ASSERT_THAT(
      WriteAll(writer, {{Make("GPU-9", "", Field::kUtil, {{kT0, 0.2}, {kT0 + 30'000, 0.4}, {kT0 + 59'999, 0.9}})}}),
      IsOk());
  const auto rows = testing::RowsWhere(testing::StoredMinutes(*conn_, "c1"),
                                       [](const store::UsageMinuteRow& r) { return r.device_id == "GPU-9"; });
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(rows[0].util_mean.value(), 0.5, 1e-15);
  EXPECT_DOUBLE_EQ(rows[0].util_max.value(), 0.9);
  EXPECT_EQ(rows[0].samples, 3);
}

TEST_F(UsageWriterTest, ProgressAndCheckpointReadBackAsWritten) {
  UsageWriter writer(store_.get(), "c1");
  MinuteWindow window(absl::ZeroDuration());
  window.Add(0, 10, {Make("GPU-1", "", Field::kEnergy, {{kT0 + 10'000, 500}, {kT0 + 50'000, 900}})}, absl::Now());
  const ClosedBatch closed = window.Close(absl::Now(), true);
  ASSERT_THAT(writer.WriteClosed(closed, "log-a"), IsOk());
  auto state = writer.LoadPushState();
  ASSERT_THAT(state, IsOk());
  EXPECT_EQ(state->log_id, "log-a");
  EXPECT_EQ(state->checkpoint, 10);
  ASSERT_EQ(state->devices.size(), 1u);
  EXPECT_EQ(state->devices[0].device_id, "GPU-1");
  EXPECT_EQ(state->devices[0].closed_through_ms, kT0 + 60'000);
  ASSERT_EQ(state->devices[0].carried.size(), 1u);
  EXPECT_EQ(state->devices[0].carried[0].field, Field::kEnergy);
  EXPECT_EQ(state->devices[0].carried[0].points[0].ts_ms, kT0 + 50'000);
  EXPECT_EQ(state->devices[0].carried[0].points[0].value, 900);
  // Another cluster's state is its own.
  UsageWriter other(store_.get(), "c2");
  EXPECT_FALSE(other.LoadPushState()->checkpoint.has_value());
}

TEST_F(UsageWriterTest, JoinsTheInventoryByPodNameAndDeviceId) {
  {
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"T4", "nvidia", "nvidia.com/gpu"}};
    c.devices = {{"GPU-T4", "node-9", 0, "T4", absl::FromUnixMillis(kT0) - absl::Hours(31 * 24),  // 2025-12-01
                  std::nullopt}};
    c.pods = {{{"uid-123", "ml", "infer-0", "search", "Deployment", "infer", "",
                absl::FromUnixMillis(kT0) - absl::Hours(24),  // 2025-12-31
                std::nullopt, std::nullopt, 0, false},
               ""}};
    ASSERT_THAT(store::PgLiveInventoryRepository(pool_.get()).Apply(c), IsOk());
  }
  CanonicalSeries s = Make("GPU-T4", "infer-0", Field::kUtil, {{kT0, 0.5}});
  s.key.node.clear();
  s.key.model.clear();
  UsageWriter writer(store_.get(), "c1");
  ASSERT_THAT(WriteAll(writer, {{s}}), IsOk());
  const auto rows = testing::StoredMinutes(*conn_, "c1");  // one device: ordered by pod_uid
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].pod_uid, "");
  EXPECT_EQ(rows[1].pod_uid, "uid-123");
  EXPECT_EQ(rows[1].node, "node-9");
  EXPECT_EQ(rows[1].model, "T4");
}

// Quarantined records of `source` in c1, as "object_key | reason".
std::vector<std::string> Quarantined(const testing::TestDatabase& db, const std::string& source) {
  std::vector<std::string> out;
  for (const auto& record : testing::QuarantinedRecords(db.uri(), source, "c1")) {
    out.push_back(record.object_key + " | " + record.reason);
  }
  return out;
}

MinuteRow Row(const std::string& device, int64_t minute_ms, int samples = 1) {
  MinuteRow row;
  row.device_id = device;
  row.minute_ms = minute_ms;
  row.util_mean = 0.5;
  row.samples = samples;
  return row;
}

// A minute past PostgreSQL's range (year ~300000) in a closed batch: the
// batch failed as a whole and was retried forever with every later one.
// Now its rows are set aside, naming the field, and the rest is written with
// the progress, so the next batch is written too.
TEST_F(UsageWriterTest, AMinuteBeyondTheStoresRangeIsSetAsideAndTheRestWritten) {
  UsageWriter writer(store_.get(), "c1");
  const int64_t far = int64_t{9'400'000'000'000'000};
  MinuteWindow window(absl::ZeroDuration());
  window.Add(0, 1, {Make("GPU-0", "", Field::kUtil, {{kT0, 0.5}}), Make("GPU-X", "", Field::kUtil, {{far, 0.5}})},
             absl::Now());
  auto written = writer.WriteClosed(window.Close(absl::Now(), true), "log-a");
  ASSERT_THAT(written, IsOk());
  EXPECT_EQ(*written, 1);
  const auto set_aside = Quarantined(*db_, "remote_write");
  ASSERT_EQ(set_aside.size(), 1u);
  EXPECT_THAT(set_aside[0], HasSubstr("device GPU-X")) << set_aside[0];
  EXPECT_THAT(set_aside[0], HasSubstr("minute: ")) << set_aside[0];
  EXPECT_EQ(writer.LoadPushState()->checkpoint, 1);

  window.Add(1, 2, {Make("GPU-0", "", Field::kUtil, {{kT0 + 60'000, 0.7}})}, absl::Now());
  written = writer.WriteClosed(window.Close(absl::Now(), true), "log-a");
  ASSERT_THAT(written, IsOk());
  EXPECT_EQ(Rows().size(), 2u);
}

// A minute before the retention horizon would be written into a partition
// the maintainer drops: it is set aside, the rest of the batch written.
TEST_F(UsageWriterTest, AMinuteBeforeTheRetentionHorizonIsSetAside) {
  UsageWriter writer(store_.get(), "c1");
  const int64_t old = kT0 - int64_t{401} * 86'400'000;
  auto written = writer.UpsertMinuteRows({Row("GPU-0", kT0), Row("GPU-old", old)});
  ASSERT_THAT(written, IsOk());
  EXPECT_EQ(*written, 1);
  const auto set_aside = Quarantined(*db_, "pull");
  ASSERT_EQ(set_aside.size(), 1u);
  EXPECT_THAT(set_aside[0], HasSubstr("minute: 2024-11-26T00:00:00Z is before the retention horizon"));
  EXPECT_EQ(testing::StoredMinutes(*conn_, "c1").size(), 1u);
}

// The pods of the stored series of c1, by pod.
std::vector<std::string> SeriesPods(pqxx::connection& conn) {
  std::vector<std::string> pods;
  for (const auto& series : testing::StoredTelemetrySeries(conn, "c1")) pods.push_back(series.pod);
  return pods;
}

// The Unix seconds of the last_seen of c1's one series of `pod`.
int64_t LastSeen(pqxx::connection& conn, const std::string& pod) {
  const auto series = testing::RowsWhere(testing::StoredTelemetrySeries(conn, "c1"),
                                         [&](const testing::StoredSeries& s) { return s.pod == pod; });
  EXPECT_EQ(series.size(), 1u) << pod;
  return series.empty() ? 0 : absl::ToUnixSeconds(series[0].last_seen);
}

// A fleet whose pods churn: retention deletes the series of a pod gone for
// longer than it, and keeps the series a long-running writer still writes
// (it asks the store for them again hourly, which keeps them seen).
TEST_F(UsageWriterTest, RetentionDeletesTheSeriesOfAPodGoneAndKeepsOneStillWritten) {
  SimulatedClock clock(absl::FromUnixMillis(kT0));
  store::UsageStoreOptions store_options;
  store_options.clock = &clock;
  store::PgUsageRepository store(pool_.get(), store_options);
  UsageWriterOptions writer_options;
  writer_options.clock = &clock;
  UsageWriter writer(&store, "c1", writer_options);
  ASSERT_THAT(writer.Identify({Make("GPU-0", "train-0", Field::kUtil, {}), Make("GPU-1", "train-1", Field::kUtil, {})}),
              IsOk());
  // Ten days on, only train-1 is still written.
  for (int hour = 1; hour <= 240; ++hour) {
    clock.Advance(absl::Hours(1));
    ASSERT_THAT(writer.Identify({Make("GPU-1", "train-1", Field::kUtil, {})}), IsOk());
  }
  ASSERT_THAT(store::MaintainUsagePartitions(*conn_, clock.Now(), {0, 5}), IsOk());
  EXPECT_EQ(SeriesPods(*conn_), std::vector<std::string>{"train-1"});
  // The series of a pod that comes back is registered afresh.
  ASSERT_THAT(writer.Identify({Make("GPU-0", "train-0", Field::kUtil, {})}), IsOk());
  EXPECT_EQ(SeriesPods(*conn_), (std::vector<std::string>{"train-0", "train-1"}));
}

// Seeing a series again writes its last_seen only once that moves it by more
// than an hour, so a busy writer costs a row update per series an hour at most.
TEST_F(UsageWriterTest, ASeriesSeenAgainMovesItsLastSeenOnlyPastAnHour) {
  SimulatedClock clock(absl::FromUnixMillis(kT0));
  store::UsageStoreOptions store_options;
  store_options.clock = &clock;
  store::PgUsageRepository store(pool_.get(), store_options);
  const store::SeriesName series{"GPU-0", "ml", "train-0", "util", "node-1", "H100"};
  ASSERT_THAT(store.IdentifySeries("c1", {series}), IsOk());
  EXPECT_EQ(LastSeen(*conn_, "train-0"), kT0 / 1000);
  clock.Advance(absl::Minutes(59));
  ASSERT_THAT(store.IdentifySeries("c1", {series}), IsOk());
  EXPECT_EQ(LastSeen(*conn_, "train-0"), kT0 / 1000);
  clock.Advance(absl::Minutes(2));
  ASSERT_THAT(store.IdentifySeries("c1", {series}), IsOk());
  EXPECT_EQ(LastSeen(*conn_, "train-0"), kT0 / 1000 + 61 * 60);
}

// Retention drops a partition this writer created: its cache of existing
// partitions no longer holds, and every later write of that day failed.
TEST_F(UsageWriterTest, APartitionDroppedByRetentionIsCreatedAgain) {
  UsageWriter writer(store_.get(), "c1");
  const int64_t day_before = kT0 - 86'400'000;
  ASSERT_THAT(writer.UpsertMinuteRows({Row("GPU-0", day_before)}), IsOk());
  // Another maintainer with a shorter retention drops yesterday's partition.
  ASSERT_THAT(store::MaintainUsagePartitions(*conn_, absl::FromUnixMillis(kT0 + 86'400'000), {0, 1}), IsOk());
  ASSERT_EQ(testing::HasUsagePartition(*conn_, "20251231"), false);
  auto written = writer.UpsertMinuteRows({Row("GPU-0", day_before + 60'000)});
  ASSERT_THAT(written, IsOk());
  EXPECT_EQ(*written, 1);
  EXPECT_TRUE(Quarantined(*db_, "pull").empty());
}

// A row the store refuses for its data, of a kind not checked beforehand
// (here samples = 0 against usage_minute's CHECK): the rows are written one
// by one and only the refused one is set aside.
TEST_F(UsageWriterTest, ARowTheStoreRefusesIsSetAsideAndTheOthersWritten) {
  UsageWriter writer(store_.get(), "c1");
  auto written = writer.UpsertMinuteRows({Row("GPU-0", kT0), Row("GPU-bad", kT0, 0), Row("GPU-1", kT0)});
  ASSERT_THAT(written, IsOk());
  EXPECT_EQ(*written, 2);
  const auto set_aside = Quarantined(*db_, "pull");
  ASSERT_EQ(set_aside.size(), 1u);
  EXPECT_THAT(set_aside[0], HasSubstr("device GPU-bad")) << set_aside[0];
  EXPECT_THAT(set_aside[0], HasSubstr("refused by the store")) << set_aside[0];
  EXPECT_EQ(testing::StoredMinutes(*conn_, "c1").size(), 2u);
}

TEST_F(UsageWriterTest, DatabaseGoneIsUnavailableAndNothingIsHalfWritten) {
  UsageWriter writer(store_.get(), "c1");
  ASSERT_THAT(WriteAll(writer, {{Make("GPU-1", "", Field::kUtil, {{kT0, 0.5}})}}), IsOk());
  testing::TerminateOtherSessions(*conn_);
  const std::vector<std::vector<CanonicalSeries>> next = {{Make("GPU-1", "", Field::kUtil, {{kT0 + 61'000, 0.7}})}};
  auto failed = WriteAll(writer, next);
  ASSERT_THAT(failed, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_EQ(testing::QuarantinedRecords(db_->uri()).size(), 0u) << "nothing is set aside because the store was away";
  // The pool reconnects; the retried batch lands whole.
  auto retried = WriteAll(writer, next);
  ASSERT_THAT(retried, IsOk());
  EXPECT_EQ(*retried, 1);
  EXPECT_EQ(testing::StoredMinutes(*conn_, "c1").size(), 2u);
}

}  // namespace
}  // namespace fleetcap::telemetry
