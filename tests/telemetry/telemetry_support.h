#pragma once
// Helpers for the telemetry integration tests: a real fleetcap-ingest
// prometheus process, HTTP POSTs of remote_write bodies, and the process's
// own metrics read back from /metrics.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tests/support/http_get.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"

namespace fleetcap::testing {

struct IngestProcess {
  std::unique_ptr<Subprocess> process;
  std::shared_ptr<TestDir> wal;  // the --wal-dir StartIngest made, if it made one
  int remote_write_port = 0;
  int metrics_port = 0;
  std::string write_url() const { return "http://127.0.0.1:" + std::to_string(remote_write_port) + "/api/v1/write"; }
};

// fleetcap-ingest prometheus --cluster CLUSTER on free ports, plus `extra`.
// Serving remote_write, it gets a fresh --wal-dir (removed with the
// IngestProcess), --wal-segment-mb 4 and --settle 1s unless `extra` names them;
// always --retention-days 36500 unless named (fixtures carry fixed dates).
absl::StatusOr<IngestProcess> StartIngest(const std::string& db_uri, const std::string& cluster,
                                          const std::vector<std::string>& extra = {});

// Waits until every acknowledged remote_write sample is aggregated and every
// minute closed and written (the process's own gauges say so).
absl::Status WaitUntilPushWritten(const IngestProcess& ingest, absl::Duration patience = absl::Seconds(60));

using PostResult = HttpResult;
// A remote_write body of one sample (GPU-0 on n1 at 50% utilisation, stamped now).
std::string OneSampleBody();

// POSTs a remote_write body with Prometheus' headers, and `headers` ("Name: value");
// `tls` for an https:// URL.
absl::StatusOr<PostResult> PostRemoteWrite(const std::string& url, const std::string& body,
                                           const std::vector<std::string>& headers = {}, const HttpTls& tls = {});

// The sum of every sample of metric `name` whose label text contains
// `label_filter` (e.g. `reason="nan"`), from http://127.0.0.1:PORT/metrics.
absl::StatusOr<double> ScrapeMetric(int port, const std::string& name, const std::string& label_filter = "");

// A TCP port free right now on 127.0.0.1.
int FreePort();

}  // namespace fleetcap::testing
