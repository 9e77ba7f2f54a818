// Samples whose timestamps no exporter would send, through a real
// fleetcap-ingest on a real PostgreSQL: each costs only itself, and the
// next good input is still stored.

#include <stdlib.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "ingest/telemetry/sample_log.h"
#include "pqxx/pqxx"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_usage.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using telemetry::RawSeries;
using ::testing::Not;

constexpr int64_t kMinuteMs = 60'000;

// Six utilisation samples of GPU-0, 10 s apart, in the minute at `minute_ms`.
RawSeries Minute(int64_t minute_ms) {
  RawSeries s{{{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"UUID", "GPU-0"}, {"Hostname", "n1"}}, {}};
  for (int i = 0; i < 6; ++i) s.points.push_back({minute_ms + i * 10'000, 50});
  return s;
}

// Samples per stored device-minute of GPU-0, by minute (ms).
std::map<int64_t, int> StoredMinutes(pqxx::connection& conn) {
  std::map<int64_t, int> out;
  for (const auto& row : testing::StoredMinutes(conn, "c1")) {
    if (row.device_id == "GPU-0" && row.pod_uid.empty()) out[row.minute_ms] = row.samples;
  }
  return out;
}

// Waits until GPU-0's minute at `minute_ms` is stored.
bool WaitForMinute(pqxx::connection& conn, int64_t minute_ms) {
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (StoredMinutes(conn).count(minute_ms) == 0) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(50));
  }
  return true;
}

using HostileSamplesTest = testing::MigratedDatabaseTest;

// One sample ten years ahead moved GPU-0's closed-through bound past every
// real sample to come: each was dropped as late (and with a longer settle
// the far minute never closed, pinning the log's checkpoint until the
// receiver answered 503). Now it is refused at the door, counted as
// `future`, and the next minutes, sent once the first was written, are
// stored.
TEST_F(HostileSamplesTest, ASampleFarAheadIsRefusedAndTheNextMinutesAreStored) {
  auto ingest = testing::StartIngest(db_->uri(), "c1");
  ASSERT_THAT(ingest, IsOk());
  const int64_t base = (absl::ToUnixMillis(absl::Now()) / kMinuteMs - 30) * kMinuteMs;
  RawSeries poisoned = Minute(base);
  poisoned.points.push_back({base + int64_t{10} * 365 * 86'400'000, 50});
  auto first = testing::PostRemoteWrite(ingest->write_url(), telemetry::EncodeRemoteWrite({poisoned}));
  ASSERT_THAT(first, IsOk());
  EXPECT_EQ(first->status, 204) << first->body;
  ASSERT_TRUE(WaitForMinute(*conn_, base)) << "the first minute was never written";
  auto next = testing::PostRemoteWrite(
      ingest->write_url(), telemetry::EncodeRemoteWrite({Minute(base + kMinuteMs), Minute(base + 2 * kMinuteMs)}));
  ASSERT_THAT(next, IsOk());
  EXPECT_EQ(next->status, 204) << next->body;
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());

  const std::map<int64_t, int> expected = {{base, 6}, {base + kMinuteMs, 6}, {base + 2 * kMinuteMs, 6}};
  EXPECT_EQ(StoredMinutes(*conn_), expected);
  const int port = ingest->metrics_port;
  auto future = testing::ScrapeMetric(port, "fleetcap_telemetry_samples_dropped_total", "reason=\"future\"");
  ASSERT_THAT(future, IsOk());
  EXPECT_EQ(*future, 1);
  EXPECT_THAT(testing::ScrapeMetric(port, "fleetcap_telemetry_samples_dropped_total", "reason=\"late\""), Not(IsOk()));
}

// A sample log written without the window (by an earlier version) that
// holds a sample far ahead: replayed at the next start it would poison its
// device again. The window applies to the replay as well.
TEST_F(HostileSamplesTest, ASampleFarAheadInTheLogIsDroppedWhenTheLogIsReplayed) {
  const testing::TestDir wal("wal");
  const int64_t base = (absl::ToUnixMillis(absl::Now()) / kMinuteMs - 30) * kMinuteMs;
  {
    auto log = telemetry::SampleLog::Open({wal.path(), 4 << 20});
    ASSERT_THAT(log, IsOk());
    RawSeries poisoned = Minute(base);
    poisoned.points.push_back({base + int64_t{10} * 365 * 86'400'000, 50});
    auto span = (*log)->Append(telemetry::EncodeRemoteWrite({poisoned}));
    ASSERT_THAT(span, IsOk());
    ASSERT_THAT((*log)->WaitDurable(span->end), IsOk());
  }
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--wal-dir", wal.path()});
  ASSERT_THAT(ingest, IsOk());
  ASSERT_TRUE(WaitForMinute(*conn_, base)) << "the replayed minute was never written";
  auto next = testing::PostRemoteWrite(ingest->write_url(), telemetry::EncodeRemoteWrite({Minute(base + kMinuteMs)}));
  ASSERT_THAT(next, IsOk());
  EXPECT_EQ(next->status, 204) << next->body;
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  const std::map<int64_t, int> expected = {{base, 6}, {base + kMinuteMs, 6}};
  EXPECT_EQ(StoredMinutes(*conn_), expected);
}

// Samples older than the retention (here 2 days) are refused as `too_old`:
// their partition would be dropped under them.
TEST_F(HostileSamplesTest, ASampleOlderThanTheRetentionIsRefused) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--retention-days", "2"});
  ASSERT_THAT(ingest, IsOk());
  const int64_t base = (absl::ToUnixMillis(absl::Now()) / kMinuteMs - 30) * kMinuteMs;
  auto posted = testing::PostRemoteWrite(
      ingest->write_url(), telemetry::EncodeRemoteWrite({Minute(base - int64_t{3} * 86'400'000), Minute(base)}));
  ASSERT_THAT(posted, IsOk());
  EXPECT_EQ(posted->status, 204) << posted->body;
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  const std::map<int64_t, int> expected = {{base, 6}};
  EXPECT_EQ(StoredMinutes(*conn_), expected);
  auto too_old =
      testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_dropped_total", "reason=\"too_old\"");
  ASSERT_THAT(too_old, IsOk());
  EXPECT_EQ(*too_old, 6);
}

// A device label that is not UTF-8: the store refused the series, so the
// whole closed batch, every good minute with it, was retried forever. Now
// the series is dropped at the door (`invalid_label`) and the rest stored.
TEST_F(HostileSamplesTest, ALabelTheStoreCannotHoldCostsOnlyItsSeries) {
  auto ingest = testing::StartIngest(db_->uri(), "c1");
  ASSERT_THAT(ingest, IsOk());
  const int64_t base = (absl::ToUnixMillis(absl::Now()) / kMinuteMs - 30) * kMinuteMs;
  RawSeries bad = Minute(base);
  bad.labels[1].second = "GPU-\xff";
  auto posted = testing::PostRemoteWrite(ingest->write_url(), telemetry::EncodeRemoteWrite({bad, Minute(base)}));
  ASSERT_THAT(posted, IsOk());
  EXPECT_EQ(posted->status, 204) << posted->body;
  ASSERT_THAT(testing::WaitUntilPushWritten(*ingest), IsOk());
  const std::map<int64_t, int> expected = {{base, 6}};
  EXPECT_EQ(StoredMinutes(*conn_), expected);
  auto invalid = testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_dropped_total",
                                       "reason=\"invalid_label\"");
  ASSERT_THAT(invalid, IsOk());
  EXPECT_EQ(*invalid, 6);
}

}  // namespace
}  // namespace fleetcap
