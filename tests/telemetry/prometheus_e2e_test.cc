// The real thing: Prometheus 2.42 scrapes a fixture exporter (dcgm-exporter,
// TPU and AMD exposition), remote-writes to fleetcap-ingest (cluster
// "push"), and fleetcap-ingest pulls the same data from it with query_range
// (cluster "pull"). Both paths must store the same per-minute rows.
//
// Tolerance: counts, maxima and memory bytes are compared exactly. Means
// and energy are compared to 1e-9 relative: the push path sums samples in
// fleetcap, the pull path takes Prometheus' sum_over_time, and a counter's
// increase is a sum of per-sample steps on one side and a difference of
// per-minute last values on the other; the same numbers added in another
// order or grouping differ in the last bits of a double, no more.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/fixture_exporter.h"
#include "tests/telemetry/prometheus_process.h"
#include "tests/telemetry/telemetry_support.h"
#include "tests/telemetry/usage_rows.h"

namespace fleetcap {
namespace {

constexpr int64_t kStepMs = 10'000;

std::string Config(int exporter_port, int remote_write_port) {
  return absl::StrCat(R"(global:
  scrape_interval: 500ms
  scrape_timeout: 450ms
scrape_configs:
  - job_name: fixture
    static_configs:
      - targets: ['127.0.0.1:)",
                      exporter_port, R"(']
remote_write:
  - url: http://127.0.0.1:)",
                      remote_write_port, R"(/api/v1/write
    queue_config:
      batch_send_deadline: 500ms
      min_backoff: 100ms
      max_backoff: 1s
    metadata_config:
      send: false
)");
}

std::map<std::string, std::vector<std::string>> RowsByKey(pqxx::connection& conn, const std::string& cluster,
                                                          int64_t from_s, int64_t to_s) {
  std::map<std::string, std::vector<std::string>> out;
  for (const std::string& line : testing::UsageRows(conn, cluster)) {
    std::vector<std::string> f = absl::StrSplit(line, '|');
    const int64_t minute = std::stoll(f[2]);
    if (minute < from_s || minute >= to_s) continue;
    out[absl::StrCat(f[0], "|", f[1], "|", f[2])] = f;
  }
  return out;
}

bool Near(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (a == "-" || b == "-") return false;
  const double x = std::stod(a), y = std::stod(b);
  return std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y));
}

TEST(PrometheusEndToEnd, PullAndPushStoreTheSameMinutes) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_TRUE(db.ok()) << db.status();
  auto conn = (*db)->Connect();
  auto push = testing::StartIngest((*db)->uri(), "push");
  ASSERT_TRUE(push.ok()) << push.status();

  // Prometheus remote-writes only samples newer than its own start, so the
  // fixture's fake time begins at the next minute but one, and runs 20x
  // (10 fake seconds a scrape, a scrape every 500 ms).
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  const int64_t t0 = (now_ms / 60'000 + 2) * 60'000;
  testing::FixtureExporter exporter(t0, kStepMs);
  ASSERT_TRUE(exporter.Start());
  auto prom = testing::StartPrometheus(Config(exporter.port(), push->remote_write_port));
  ASSERT_TRUE(prom.ok()) << prom.status();

  // Four fake minutes: 24 scrapes.
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (exporter.next_ms() < t0 + 4 * 60'000 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(100));
  ASSERT_GE(exporter.next_ms(), t0 + 4 * 60'000) << "Prometheus did not scrape the fixture";

  // Pull minutes t0 .. t0+3m, one minute per query (chunking exercised);
  // --until is taken as given although those minutes are ahead of now.
  auto pulled = testing::Run({FLEETCAP_INGEST_BIN, "prometheus", "--db", (*db)->uri(), "--cluster", "pull",
                              "--prometheus-url", (*prom)->url(), "--once", "--max-points", "1", "--since",
                              FormatRfc3339(absl::FromUnixMillis(t0)), "--until",
                              FormatRfc3339(absl::FromUnixMillis(t0 + 3 * 60'000)), "--log-level", "warn"});
  ASSERT_EQ(pulled.exit_code, 0) << pulled.err;
  // Compare minutes t0+1m and t0+2m (t0's counter increase needs the minute before it).
  const int64_t from_s = t0 / 1000 + 60, to_s = t0 / 1000 + 180;
  auto pull_rows = RowsByKey(*conn, "pull", from_s, to_s);
  // GPU 0 (device + pod), GPU 1, the TPU (device + pod), the AMD GPU: 6 rows a minute.
  ASSERT_EQ(pull_rows.size(), 12u);
  std::map<std::string, std::vector<std::string>> push_rows;
  const absl::Time push_deadline = absl::Now() + absl::Seconds(30);
  do {
    push_rows = RowsByKey(*conn, "push", from_s, to_s);
    // A scrape that timed out under load is missing on both paths alike:
    // wait until every row has as many samples as Prometheus answered.
    bool complete = push_rows.size() == pull_rows.size();
    for (const auto& [key, row] : push_rows) {
      complete = complete && pull_rows.count(key) == 1 && row[16] == pull_rows[key][16];
    }
    if (complete) break;
    absl::SleepFor(absl::Milliseconds(200));
  } while (absl::Now() < push_deadline);
  ASSERT_EQ(push_rows.size(), pull_rows.size());
  const char* names[] = {"device", "pod_uid", "minute", "node", "model", "namespace", "pod", "util_mean",
                         "util_max", "memory_used", "memory_total", "power", "energy", "sm", "tensor", "dram",
                         "samples"};
  for (const auto& [key, pull] : pull_rows) {
    ASSERT_EQ(push_rows.count(key), 1u) << key;
    const auto& pushed = push_rows[key];
    for (size_t i = 0; i < pull.size(); ++i) {
      EXPECT_TRUE(Near(pull[i], pushed[i])) << key << " " << names[i] << ": pull " << pull[i] << " push " << pushed[i];
    }
    EXPECT_GE(std::stoi(pull[16]), 5) << key;  // a sample every 10 fake seconds, 6 a minute
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
