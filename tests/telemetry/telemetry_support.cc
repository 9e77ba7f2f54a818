#include "tests/telemetry/telemetry_support.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"

namespace fleetcap::testing {
absl::StatusOr<IngestProcess> StartIngest(const std::string& db_uri, const std::string& cluster,
                                          const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {fleetcap::testing::kIngestBin,
                                   "prometheus",
                                   "--db",
                                   db_uri,
                                   "--cluster",
                                   cluster,
                                   "--metrics-listen",
                                   "127.0.0.1:0",
                                   "--log-level",
                                   "warn"};
  bool has_listen = false, pushes = false, has_wal = false, has_settle = false, has_segment = false,
       has_retention = false;
  for (const auto& a : extra) {
    has_listen = has_listen || a == "--remote-write-listen" || a == "--prometheus-url";
    pushes = pushes || a == "--remote-write-listen";
    has_wal = has_wal || a == "--wal-dir";
    has_settle = has_settle || a == "--settle";
    has_segment = has_segment || a == "--wal-segment-mb";
    has_retention = has_retention || a == "--retention-days";
  }
  // Fixtures carry fixed dates: keep them inside the retention whatever the date.
  if (!has_retention) argv.insert(argv.end(), {"--retention-days", "36500"});
  if (!has_listen) {
    argv.insert(argv.end(), {"--remote-write-listen", "127.0.0.1:0"});
    pushes = true;
  }
  std::shared_ptr<TestDir> wal;
  if (pushes && !has_wal) {
    wal = std::make_shared<TestDir>("wal");
    if (wal->path().empty()) return absl::InternalError("no directory for --wal-dir");
    argv.insert(argv.end(), {"--wal-dir", wal->path()});
  }
  if (pushes && !has_segment) argv.insert(argv.end(), {"--wal-segment-mb", "4"});
  if (pushes && !has_settle) argv.insert(argv.end(), {"--settle", "1s"});
  argv.insert(argv.end(), extra.begin(), extra.end());
  FLEETCAP_ASSIGN_OR_RETURN(auto process, Subprocess::Start(argv));
  auto line = process->WaitForLine("fleetcap-ingest prometheus ready", absl::Seconds(60));
  if (!line.ok()) return absl::UnavailableError(absl::StrCat(line.status().message(), "; stderr: ", process->Stderr()));
  IngestProcess ingest;
  if (std::sscanf(line->c_str(), "fleetcap-ingest prometheus ready remote_write=%d metrics=%d",
                  &ingest.remote_write_port, &ingest.metrics_port) != 2) {
    return absl::InternalError("unreadable ready line: " + *line);
  }
  ingest.process = std::move(process);
  ingest.wal = std::move(wal);
  return ingest;
}

absl::Status WaitUntilPushWritten(const IngestProcess& ingest, absl::Duration patience) {
  const absl::Time deadline = absl::Now() + patience;
  for (;;) {
    double pending = 0;
    for (const char* gauge : {"fleetcap_telemetry_queue_samples", "fleetcap_telemetry_open_minutes",
                              "fleetcap_telemetry_log_unwritten_bytes"}) {
      auto value = ScrapeMetric(ingest.metrics_port, gauge);
      pending += value.ok() ? *value : 1;
    }
    if (pending == 0) return absl::OkStatus();
    if (absl::Now() > deadline) return absl::DeadlineExceededError("remote_write minutes still unwritten");
    absl::SleepFor(absl::Milliseconds(50));
  }
}

std::string OneSampleBody() {
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  telemetry::RawSeries s{{{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"UUID", "GPU-0"}, {"Hostname", "n1"}}, {{now_ms, 50}}};
  return telemetry::EncodeRemoteWrite({s});
}

absl::StatusOr<PostResult> PostRemoteWrite(const std::string& url, const std::string& body,
                                           const std::vector<std::string>& extra_headers, const HttpTls& tls) {
  std::vector<std::string> headers = {"Content-Encoding: snappy", "Content-Type: application/x-protobuf",
                                      "X-Prometheus-Remote-Write-Version: 0.1.0", "Expect:"};
  headers.insert(headers.end(), extra_headers.begin(), extra_headers.end());
  return HttpRequest("POST", url, body, "", tls, headers);
}

absl::StatusOr<double> ScrapeMetric(int port, const std::string& name, const std::string& label_filter) {
  FLEETCAP_ASSIGN_OR_RETURN(auto page, HttpGet(absl::StrCat("http://127.0.0.1:", port, "/metrics")));
  double total = 0;
  bool found = false;
  for (absl::string_view line : absl::StrSplit(page.body, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    const size_t end = line.find_first_of("{ ");
    if (end == absl::string_view::npos || line.substr(0, end) != name) continue;
    if (!label_filter.empty() && line.find(label_filter) == absl::string_view::npos) continue;
    const size_t space = line.rfind(' ');
    total += std::stod(std::string(line.substr(space + 1)));
    found = true;
  }
  if (!found) return absl::NotFoundError(absl::StrCat("no sample of ", name, "{", label_filter, "}"));
  return total;
}

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace fleetcap::testing
