// The attribution engine on a synthetic fleet with openb's shapes (nodes of
// 8 GPUs of a few models; whole devices and 1/2 and 1/4 shares held at
// random times, some overlapping, as over-held facts do), on the
// `request` basis with idle shared per cluster: prints the wall time and
// peak RSS of attributing the whole window (docs/benchmarks.md). With
// `--basis usage` (or `max`) every minute of every hold has a reading.
//
//   attribution_bench [--devices N] [--pods N] [--days N] [--seed N] [--basis request|usage|max]

#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "optimizer/attribution/attribution_engine.h"

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

constexpr int kTeams = 20;

// Team t-K owns the namespaces ns-K-*: one rule per team.
class NamespaceTeams : public TeamSchedule {
 public:
  std::vector<TeamSpan> TeamsDuring(const policy::PodEvidence& pod, absl::Time from, absl::Time to) const override {
    const std::string& ns = pod.namespace_name;
    return {{from, to, absl::StrCat("t-", ns.substr(3, ns.find('-', 3) - 3))}};
  }
};

AttributionInput SyntheticFleet(const Settings& s) {
  std::mt19937_64 rng(static_cast<uint64_t>(s.seed));
  auto in = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  AttributionInput input;
  input.start = absl::FromUnixSeconds(1767225600);  // 2026-01-01
  input.end = input.start + absl::Hours(24 * s.days);
  const std::vector<std::string> models = {"V100M16", "V100M32", "P100", "T4", "A10", "G2"};
  for (size_t m = 0; m < models.size(); ++m) {
    policy::Price p;
    p.model = models[m];
    p.from = input.start - absl::Hours(24);
    p.micro_per_device_hour = 500000 + 350000 * static_cast<int64_t>(m);
    input.prices.push_back(p);
  }
  input.devices.reserve(static_cast<size_t>(s.devices));
  for (int64_t d = 0; d < s.devices; ++d) {
    const int64_t node = d / 8;
    DeviceInService dev{absl::StrCat("c", node % 4), absl::StrCat("node-", node), absl::StrCat("gpu-", d),
                        models[static_cast<size_t>(node % static_cast<int64_t>(models.size()))],
                        input.start - absl::Hours(1)};
    if (in(0, 49) == 0) dev.to = input.start + absl::Seconds(in(0, 24 * 3600 * s.days));  // a node leaves
    input.devices.push_back(std::move(dev));
  }
  // Holds on each device in turn: a whole device, or 2 or 4 equal shares
  // side by side, from a random time for a random while (two thirds of the
  // fleet's device time held, on average).
  const int64_t window = 24 * 3600 * s.days;
  const int64_t mean = std::max<int64_t>(60, window * s.devices * 2 / (3 * s.pods));
  input.holds.reserve(static_cast<size_t>(s.pods));
  int64_t pod = 0;
  for (int64_t d = 0; pod < s.pods; d = (d + 1) % s.devices) {
    const DeviceInService& dev = input.devices[static_cast<size_t>(d)];
    const int64_t side_by_side = std::vector<int64_t>{1, 1, 1, 2, 4}[static_cast<size_t>(in(0, 4))];
    const absl::Time from = input.start + absl::Seconds(in(0, window));
    const absl::Time to = from + absl::Seconds(in(30, 2 * mean));
    for (int64_t k = 0; k < side_by_side && pod < s.pods; ++k, ++pod) {
      const int64_t team = in(0, kTeams - 1);
      HoldFact h{dev.cluster,
                 absl::StrCat("pod-", pod),
                 absl::StrCat("ns-", team, "-", in(0, 9)),
                 "",
                 absl::StrCat("Job/job-", pod / 4),
                 dev.device_id,
                 1000 / side_by_side,
                 from,
                 to};
      if (s.basis != "request") {
        const absl::Time first = absl::FromUnixSeconds(absl::ToUnixSeconds(from) / 60 * 60);
        for (absl::Time m = first; m < to; m += absl::Minutes(1)) {
          input.usage.push_back({h.cluster, h.pod_uid, h.device_id, m, in(0, h.milli)});
        }
      }
      input.holds.push_back(std::move(h));
    }
  }
  input.options.basis = s.basis;
  input.options.idle = "share";
  input.options.idle_scope = "cluster";
  return input;
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
  const AttributionInput input = SyntheticFleet(s);
  const absl::Time started = absl::Now();
  int64_t lines = 0;
  absl::StatusOr<AttributionReport> report =
      Attribute(input, NamespaceTeams(), [&](HourLines&& hour) { lines += static_cast<int64_t>(hour.lines.size()); });
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
