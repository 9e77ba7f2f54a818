#pragma once
// What a read benchmark prints of a series of timed calls: the first call
// (a cold cache, a fresh backend) apart from the quantiles of all of them.

#include <algorithm>
#include <utility>
#include <vector>

namespace fleetcap::bench {

struct CallLatency {
  double first_ms = 0, p50_ms = 0, p99_ms = 0, max_ms = 0;
};

// `ms` in call order; at least one.
inline CallLatency LatencyOf(std::vector<double> ms) {
  CallLatency f;
  f.first_ms = ms.front();
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(q * static_cast<double>(ms.size())))];
  };
  f.p50_ms = at(0.50);
  f.p99_ms = at(0.99);
  f.max_ms = ms.back();
  return f;
}

}  // namespace fleetcap::bench
