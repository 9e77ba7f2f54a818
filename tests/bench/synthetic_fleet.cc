#include "tests/bench/synthetic_fleet.h"

#include <algorithm>
#include <random>

#include "absl/strings/str_cat.h"

namespace fleetcap::bench {

using attribution::AttributionInput;
using attribution::DeviceInService;
using attribution::HoldFact;

namespace {
constexpr int kTeams = 20;
}  // namespace

std::vector<attribution::TeamSpan> SyntheticTeams::TeamsDuring(const policy::PodEvidence& pod, absl::Time from,
                                                               absl::Time to) const {
  const std::string& ns = pod.namespace_name;
  return {{from, to, absl::StrCat("t-", ns.substr(3, ns.find('-', 3) - 3))}};
}

absl::Time SyntheticFleetStart() { return absl::FromUnixSeconds(1767225600); }  // 2026-01-01

std::vector<policy::Price> SyntheticPrices() {
  const std::vector<std::string> models = {"V100M16", "V100M32", "P100", "T4", "A10", "G2"};
  std::vector<policy::Price> prices;
  for (size_t m = 0; m < models.size(); ++m) {
    policy::Price p;
    p.model = models[m];
    p.from = SyntheticFleetStart() - absl::Hours(24);
    p.micro_per_device_hour = 500000 + 350000 * static_cast<int64_t>(m);
    prices.push_back(p);
  }
  return prices;
}

AttributionInput SyntheticFleet(const FleetShape& s) {
  std::mt19937_64 rng(static_cast<uint64_t>(s.seed));
  auto in = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  AttributionInput input;
  input.start = SyntheticFleetStart();
  input.end = input.start + absl::Hours(24 * s.days);
  input.prices = SyntheticPrices();
  std::vector<std::string> models;
  for (const policy::Price& p : input.prices) models.push_back(p.model);
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

}  // namespace fleetcap::bench
