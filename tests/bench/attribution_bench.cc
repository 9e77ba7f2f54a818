// The attribution engine on a synthetic fleet with openb's shapes
// (synthetic_fleet.h), on the `request` basis with idle shared per cluster: prints the wall time and
// peak RSS of attributing the whole window (docs/benchmarks.md). With
// `--basis usage` (or `max`) every minute of every hold has a reading.
//
//   attribution_bench [--devices N] [--pods N] [--days N] [--seed N] [--basis request|usage|max]

#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "optimizer/attribution/attribution_engine.h"
#include "tests/bench/synthetic_fleet.h"

namespace fleetcap::attribution {
namespace {

struct Settings {
  int64_t devices = 1000;
  int64_t pods = 10000;
  int64_t days = 30;
  int64_t seed = 1;
  std::string basis = "request";
};

bool Parse(int argc, char** argv, Settings* s) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--basis") == 0) {
      s->basis = argv[i + 1];
      if (s->basis != "request" && s->basis != "usage" && s->basis != "max") return false;
      continue;
    }
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--devices") == 0) target = &s->devices;
    if (std::strcmp(argv[i], "--pods") == 0) target = &s->pods;
    if (std::strcmp(argv[i], "--days") == 0) target = &s->days;
    if (std::strcmp(argv[i], "--seed") == 0) target = &s->seed;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 1) {
      std::fprintf(stderr, "attribution_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1;
}

int Main(int argc, char** argv) {
  Settings s;
  if (!Parse(argc, argv, &s)) {
    std::fprintf(
        stderr,
        "usage: attribution_bench [--devices N] [--pods N] [--days N] [--seed N] [--basis request|usage|max]\n");
    return 2;
  }
  const absl::Time made = absl::Now();
  const AttributionInput input = bench::SyntheticFleet({s.devices, s.pods, s.days, s.seed, s.basis});
  const absl::Time started = absl::Now();
  int64_t lines = 0;
  absl::StatusOr<AttributionReport> report = Attribute(
      input, bench::SyntheticTeams(), [&](HourLines&& hour) { lines += static_cast<int64_t>(hour.lines.size()); });
  const absl::Duration took = absl::Now() - started;
  if (!report.ok()) {
    std::fprintf(stderr, "attribution_bench: %s\n", std::string(report.status().message()).c_str());
    return 1;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("devices %lld, pods %lld, days %lld, basis %s, %zu usage minutes: fleet made in %.1f s\n",
              static_cast<long long>(s.devices), static_cast<long long>(s.pods), static_cast<long long>(s.days),
              s.basis.c_str(), input.usage.size(), absl::ToDoubleSeconds(started - made));
  std::printf("attribution: %.1f s wall, %lld lines, total %lld micro, %zu over-held, peak RSS %.0f MiB\n",
              absl::ToDoubleSeconds(took), static_cast<long long>(lines),
              static_cast<long long>(report->total_cost_micro), report->over_held.size(),
              static_cast<double>(usage.ru_maxrss) / 1024.0);
  return 0;
}

}  // namespace
}  // namespace fleetcap::attribution

int main(int argc, char** argv) { return fleetcap::attribution::Main(argc, argv); }
