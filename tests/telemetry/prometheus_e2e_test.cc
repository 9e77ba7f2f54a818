// The real thing: Prometheus 2.42 scrapes a fixture exporter (dcgm-exporter,
// TPU and AMD exposition), remote-writes to fleetcap-ingest (cluster
// "push"), and fleetcap-ingest pulls the same data from it with query_range
// (cluster "pull"). Both paths must store the same per-minute rows.
//
// Tolerance: see push_pull_rows.h.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "pqxx/pqxx"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/fixture_exporter.h"
#include "tests/telemetry/prometheus_process.h"
#include "tests/telemetry/push_pull_rows.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;

constexpr int64_t kStepMs = 10'000;

TEST(PrometheusEndToEnd, PullAndPushStoreTheSameMinutes) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  // A minute closes 60 fake seconds after its end (3 s here, fake time
  // running 20x), not 1: a remote_write batch held up for a moment on a busy
  // machine must not find its minute closed and be dropped as late, which
  // would start the next minute's counter increase from an older sample.
  auto push = testing::StartIngest((*db)->uri(), "push", {"--settle", "60s"});
  ASSERT_THAT(push, IsOk());

  // Prometheus remote-writes only samples newer than its own start, so the
  // fixture's fake time begins at the next minute but one, and runs 20x
  // (10 fake seconds a scrape, a scrape every 500 ms).
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  const int64_t t0 = (now_ms / 60'000 + 2) * 60'000;
  testing::FixtureExporter exporter(t0, kStepMs);
  ASSERT_TRUE(exporter.Start());
  auto prom = testing::StartPrometheus(testing::PushPullConfig(exporter.port(), push->remote_write_port));
  ASSERT_THAT(prom, IsOk());

  // Four fake minutes: 24 scrapes.
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (exporter.next_ms() < t0 + 4 * 60'000 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(100));
  ASSERT_GE(exporter.next_ms(), t0 + 4 * 60'000) << "Prometheus did not scrape the fixture";

  // Pull minutes t0 .. t0+3m, one minute per query (chunking exercised);
  // --until is taken as given although those minutes are ahead of now.
  auto pulled = testing::PullOnce((*db)->uri(), (*prom)->url(), t0, t0 + 3 * 60'000);
  ASSERT_EQ(pulled.exit_code, 0) << pulled.err;
  // Compare minutes t0+1m and t0+2m (t0's counter increase needs the minute before it).
  const int64_t from_s = t0 / 1000 + 60, to_s = t0 / 1000 + 180;
  auto pull_rows = testing::RowsByKey(*conn, "pull", from_s, to_s);
  // GPU 0 (device + pod), GPU 1, the TPU (device + pod), the AMD GPU: 6 rows a minute.
  ASSERT_EQ(pull_rows.size(), 12u);
  auto push_rows = testing::WaitForPushRows(*conn, pull_rows, from_s, to_s, absl::Seconds(30));
  testing::ExpectSameRows(pull_rows, push_rows);
  for (const auto& [key, pull] : pull_rows) {
    EXPECT_GE(testing::RowSamples(pull), 5) << key;  // a sample every 10 fake seconds, 6 a minute
  }
  // One figure recomputed from the fixture's formula: GPU 1's busiest
  // moment in minute t0+1m (scrapes 6..11), when no scrape of it was lost.
  double max_util = 0;
  for (int k = 6; k < 12; ++k) max_util = std::max(max_util, ((k * 7 + 31) % 101) / 100.0);
  const std::string gpu1 = absl::StrCat("GPU-fixture-1||", from_s);
  ASSERT_EQ(pull_rows.count(gpu1), 1u);
  if (pull_rows[gpu1][16] == "6") {
    EXPECT_DOUBLE_EQ(std::stod(pull_rows[gpu1][8]), max_util);
  }
  EXPECT_EQ(pull_rows[gpu1][3], "node-a");
  const std::string pod = absl::StrCat("GPU-fixture-0|ml/train-0|", from_s);
  ASSERT_EQ(pull_rows.count(pod), 1u);
  EXPECT_EQ(pull_rows[pod][6], "train-0");
}

}  // namespace
}  // namespace fleetcap
