// fleetcap-telemetry-replay: utilisation telemetry for a cluster's pods, for
// the demo. It plays the DCGM exporters and the Prometheus that
// remote_writes their series: for every minute a pod held a device in the
// window (the store says which, see device_holds.h), one
// DCGM_FI_DEV_GPU_UTIL sample of that pod on that device, its value from
// the published genai per-pod GPU duty cycle, pushed to
// `fleetcap-ingest prometheus` (see telemetry_replay.h).
//
//   tar -xzOf genai/pod_gpu_duty_cycle_anon.tar.gz | fleetcap-telemetry-replay --db URI
//       --cluster openb --duty-cycle - --remote-write-url http://127.0.0.1:PORT/api/v1/write
//       [--days 7 | --minutes M] [--until T] [--unless-stored] [--wait-written http://127.0.0.1:PORT/metrics]
//
// Exits 0 once every request was accepted (and, with --wait-written, the
// ingest wrote every minute), 1 on failure, 2 on a bad command line.

#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/flags.h"
#include "common/time_util.h"
#include "tests/support/device_holds.h"
#include "tests/support/http_get.h"
#include "tests/telemetry/duty_cycle_csv.h"
#include "tests/telemetry/telemetry_replay.h"

namespace fleetcap::testing {
namespace {

constexpr const char* kUsage =
    "fleetcap-telemetry-replay --db URI --cluster NAME --duty-cycle CSV|- --remote-write-url URL [flags]";

absl::StatusOr<std::string> ReadInput(const std::string& path) {
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) return absl::InvalidArgumentError(absl::StrCat("--duty-cycle: cannot read \"", path, "\""));
    text << in.rdbuf();
  }
  return text.str();
}

// What the ingest has not yet written, from its own gauges (as its
// integration tests read them); an unreadable gauge counts as pending.
double Unwritten(const std::string& metrics_url) {
  auto page = HttpGet(metrics_url);
  if (!page.ok() || page->status != 200) return 1;
  double pending = 0;
  int found = 0;
  for (absl::string_view line : absl::StrSplit(page->body, '\n')) {
    for (absl::string_view gauge : {"fleetcap_telemetry_queue_samples ", "fleetcap_telemetry_open_minutes ",
                                    "fleetcap_telemetry_log_unwritten_bytes "}) {
      if (absl::StartsWith(line, gauge)) {
        pending += std::stod(std::string(line.substr(gauge.size())));
        ++found;
      }
    }
  }
  return found == 3 ? pending : 1;
}

int Run(int argc, char** argv) {
  std::string db, cluster, duty_cycle, url, until_text, wait_written;
  int64_t days = 7, minutes = 0, batch_samples = ReplayOptions{}.batch_samples;
  bool unless_stored = false;
  FlagSet flags("fleetcap-telemetry-replay", kUsage);
  flags.Secret("db", &db, "PostgreSQL URI of the store holding the cluster's holds", "FLEETCAP_DB");
  flags.String("cluster", &cluster, "the cluster whose pods get telemetry");
  flags.String("duty-cycle", &duty_cycle, "the genai duty-cycle CSV (value,timestamp_anon,container_ip); - for stdin");
  flags.String("remote-write-url", &url, "fleetcap-ingest prometheus's remote_write URL");
  flags.String("until", &until_text, "RFC 3339: the window's end (default: now, to the minute)");
  flags.Int("days", &days, "the window's length in days, ending at --until");
  flags.Int("minutes", &minutes, "the window's length in minutes instead of --days (a load of chosen size)");
  flags.Int("batch-samples", &batch_samples, "samples per request (whole minutes; at least this many)");
  flags.Bool("unless-stored", &unless_stored, "do nothing when usage_minute has pod rows in the window");
  flags.String("wait-written", &wait_written,
               "the ingest's /metrics URL: after the push, wait until it wrote every minute");
  auto parsed = flags.Parse(Args(argc, argv));
  if (!parsed.ok()) {
    std::cerr << "fleetcap-telemetry-replay: " << parsed.status().message() << "\n";
    return 2;
  }
  if (parsed->help) {
    std::cout << flags.Help();
    return 0;
  }
  auto usage_error = [](const std::string& message) {
    std::cerr << "fleetcap-telemetry-replay: " << message << "\n";
    return 2;
  };
  if (db.empty()) return usage_error("--db: empty");
  if (cluster.empty()) return usage_error("--cluster: empty");
  if (duty_cycle.empty()) return usage_error("--duty-cycle: empty");
  if (url.empty()) return usage_error("--remote-write-url: empty");
  if (days < 1 || days > 400) return usage_error("--days: must be within 1..400");
  if (minutes < 0 || minutes > 400 * 24 * 60) return usage_error("--minutes: must be within 0..576000");
  if (batch_samples < 1 || batch_samples > 1'000'000) return usage_error("--batch-samples: must be within 1..1000000");
  const Clock& clock = *RealClock::Instance();
  absl::Time until = absl::FromUnixSeconds(absl::ToUnixSeconds(clock.Now()) / 60 * 60);
  if (!until_text.empty()) {
    auto parsed_until = ParseRfc3339("--until", until_text);
    if (!parsed_until.ok()) return usage_error(std::string(parsed_until.status().message()));
    until = *parsed_until;
  }
  const absl::Time since = until - (minutes > 0 ? absl::Minutes(minutes) : absl::Hours(24 * days));

  // Read whole before anything else, even when nothing is to be pushed: a
  // pipe feeding it (tar -xzO) then never fails for want of a reader.
  auto text = ReadInput(duty_cycle);
  if (!text.ok()) return usage_error(std::string(text.status().message()));
  if (unless_stored) {
    auto stored = HasPodUsage(db, cluster, since, until);
    if (!stored.ok()) {
      std::cerr << "fleetcap-telemetry-replay: " << stored.status().message() << "\n";
      return 1;
    }
    if (*stored) {
      std::cout << "telemetry replay skipped: cluster " << cluster << " already has pod usage in "
                << FormatRfc3339(since) << " .. " << FormatRfc3339(until) << "\n";
      return 0;
    }
  }
  auto data = ParseDutyCycleCsv(*text, duty_cycle == "-" ? "duty-cycle CSV (stdin)" : duty_cycle);
  if (!data.ok()) {
    std::cerr << "fleetcap-telemetry-replay: " << data.status().message() << "\n";
    return 1;
  }
  for (const std::string& problem : data->problems) std::cerr << "skipped " << problem << "\n";
  if (data->bad_rows > static_cast<int64_t>(data->problems.size())) {
    std::cerr << "skipped " << data->bad_rows - static_cast<int64_t>(data->problems.size()) << " more bad rows\n";
  }
  std::cout << "duty cycle: " << data->series.size() << " series, " << data->rows << " rows, " << data->bad_rows
            << " bad rows skipped\n";

  auto holds = ReadDeviceHolds(db, cluster, since, until);
  if (!holds.ok()) {
    std::cerr << "fleetcap-telemetry-replay: " << holds.status().message() << "\n";
    return 1;
  }
  if (holds->without_pod > 0) {
    std::cerr << "skipped " << holds->without_pod << " holds of pods the store does not know\n";
  }
  const absl::Duration began = clock.Monotonic();
  ReplayOptions options;
  options.batch_samples = batch_samples;
  auto report = ReplayHolds(
      holds->holds, *data,
      [&url](const std::string& body) {
        return HttpRequest("POST", url, body, "", {},
                           {"Content-Encoding: snappy", "Content-Type: application/x-protobuf",
                            "X-Prometheus-Remote-Write-Version: 0.1.0", "Expect:"});
      },
      clock, options);
  if (!report.ok()) {
    std::cerr << "fleetcap-telemetry-replay: " << report.status().message() << "\n";
    return 1;
  }
  std::cout << "telemetry replay of cluster " << cluster << " " << FormatRfc3339(since) << " .. "
            << FormatRfc3339(until) << ": " << report->pods << " pods, " << report->devices << " devices, "
            << report->holds << " holds, " << report->samples << " samples in " << report->requests << " requests ("
            << report->resent << " resent after backpressure) in "
            << absl::FormatDuration(absl::Trunc(clock.Monotonic() - began, absl::Milliseconds(100))) << "\n";
  if (!wait_written.empty()) {
    const absl::Duration waited_from = clock.Monotonic();
    while (Unwritten(wait_written) > 0) {
      if (clock.Monotonic() - waited_from > absl::Minutes(10)) {
        std::cerr << "fleetcap-telemetry-replay: the ingest has not written every minute after 10 minutes\n";
        return 1;
      }
      clock.SleepFor(absl::Milliseconds(200));
    }
    std::cout << "telemetry written in "
              << absl::FormatDuration(absl::Trunc(clock.Monotonic() - began, absl::Milliseconds(100))) << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace fleetcap::testing

int main(int argc, char** argv) { return fleetcap::testing::Run(argc, argv); }
