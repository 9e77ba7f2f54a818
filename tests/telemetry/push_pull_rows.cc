#include "tests/telemetry/push_pull_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/time_util.h"
#include "tests/support/build_paths.h"
#include "tests/support/stored_usage.h"

namespace fleetcap::testing {
namespace {

constexpr size_t kSamplesField = 16;
const char* const kFieldNames[] = {"device", "pod_uid",   "minute",   "node",        "model",        "namespace",
                                   "pod",    "util_mean", "util_max", "memory_used", "memory_total", "power",
                                   "energy", "sm",        "tensor",   "dram",        "samples"};

}  // namespace

std::string PushPullConfig(int exporter_port, int remote_write_port, const std::string& remote_write_extra) {
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
)",
                      remote_write_extra, R"(    queue_config:
      batch_send_deadline: 500ms
      min_backoff: 100ms
      max_backoff: 1s
    metadata_config:
      send: false
)");
}

RowsByKeyMap RowsByKey(pqxx::connection& conn, const std::string& cluster, int64_t from_s, int64_t to_s) {
  RowsByKeyMap out;
  for (const std::string& line : UsageRows(conn, cluster)) {
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

RunResult PullOnce(const std::string& db_uri, const std::string& prometheus_url, int64_t since_ms, int64_t until_ms) {
  return Run({fleetcap::testing::kIngestBin, "prometheus", "--db", db_uri, "--cluster", "pull", "--prometheus-url",
              prometheus_url, "--once", "--max-points", "1", "--since", FormatRfc3339(absl::FromUnixMillis(since_ms)),
              "--until", FormatRfc3339(absl::FromUnixMillis(until_ms)), "--log-level", "warn"});
}

RowsByKeyMap WaitForPushRows(pqxx::connection& conn, const RowsByKeyMap& pull, int64_t from_s, int64_t to_s,
                             absl::Duration patience) {
  RowsByKeyMap push;
  const absl::Time deadline = absl::Now() + patience;
  for (;;) {
    push = RowsByKey(conn, "push", from_s, to_s);
    bool complete = push.size() == pull.size();
    for (const auto& [key, row] : push) {
      auto it = pull.find(key);
      complete = complete && it != pull.end() && row[kSamplesField] == it->second[kSamplesField];
    }
    if (complete || absl::Now() > deadline) return push;
    absl::SleepFor(absl::Milliseconds(200));
  }
}

void ExpectSameRows(const RowsByKeyMap& pull, const RowsByKeyMap& push) {
  EXPECT_EQ(push.size(), pull.size());
  for (const auto& [key, pulled] : pull) {
    auto it = push.find(key);
    if (it == push.end()) {
      ADD_FAILURE() << "no push row " << key << " (pull has " << pulled[kSamplesField] << " samples)";
      continue;
    }
    const auto& pushed = it->second;
    for (size_t i = 0; i < pulled.size(); ++i) {
      EXPECT_TRUE(Near(pulled[i], pushed[i]))
          << key << " " << kFieldNames[i] << ": pull " << pulled[i] << " push " << pushed[i];
    }
  }
  for (const auto& [key, pushed] : push) {
    if (pull.count(key) == 0) ADD_FAILURE() << "push row " << key << " not pulled";
  }
}

int RowSamples(const std::vector<std::string>& row) { return std::stoi(row[kSamplesField]); }

}  // namespace fleetcap::testing
