#pragma once
// For the tests where a real Prometheus scrapes the fixture exporter and
// remote-writes to fleetcap-ingest (cluster "push") while fleetcap-ingest
// pulls the same data back from it with query_range (cluster "pull"): the
// Prometheus configuration, the pull run, and the comparison of the rows.
//
// Tolerance: counts, maxima and memory bytes are compared exactly. Means
// and energy are compared to 1e-9 relative: the push path sums samples in
// fleetcap, the pull path takes Prometheus' sum_over_time, and a counter's
// increase is a sum of per-sample steps on one side and a difference of
// per-minute last values on the other; the same numbers added in another
// order or grouping differ in the last bits of a double, no more.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "tests/support/subprocess.h"

namespace fleetcap::testing {

// prometheus.yml: scrape 127.0.0.1:EXPORTER_PORT every 500 ms and
// remote-write to 127.0.0.1:REMOTE_WRITE_PORT, retrying quickly (100 ms
// doubling to 1 s) whatever was not answered 2xx. `remote_write_extra` is
// added to the remote_write entry as given (indented by four spaces).
std::string PushPullConfig(int exporter_port, int remote_write_port, const std::string& remote_write_extra = "");

// usage_minute rows of `cluster` whose minute is in [from_s, to_s), keyed
// "device|pod_uid|minute", as the fields of testing::UsageRows.
using RowsByKeyMap = std::map<std::string, std::vector<std::string>>;
RowsByKeyMap RowsByKey(pqxx::connection& conn, const std::string& cluster, int64_t from_s, int64_t to_s);

// Equal, or both numbers within 1e-9 relative.
bool Near(const std::string& a, const std::string& b);

// fleetcap-ingest prometheus --once into cluster "pull": the minutes
// [since_ms, until_ms) from the Prometheus at `prometheus_url`, one minute
// per query (--max-points 1), so chunking is exercised too.
RunResult PullOnce(const std::string& db_uri, const std::string& prometheus_url, int64_t since_ms, int64_t until_ms);

// Polls cluster "push" until it holds a row for every key of `pull` with as
// many samples (a scrape that timed out under load is missing on both paths
// alike), or `patience` passes; returns the push rows of [from_s, to_s).
RowsByKeyMap WaitForPushRows(pqxx::connection& conn, const RowsByKeyMap& pull, int64_t from_s, int64_t to_s,
                             absl::Duration patience);

// EXPECTs the same keys on both sides and every field Near its counterpart.
void ExpectSameRows(const RowsByKeyMap& pull, const RowsByKeyMap& push);

// The sample count field of a row.
int RowSamples(const std::vector<std::string>& row);

}  // namespace fleetcap::testing
