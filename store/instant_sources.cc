#include "store/instant_sources.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace fleetcap::store {
namespace {

// The summary at `at` from a base known at `base_at`: the change over
// (base_at, at] added, or over (at, base_at] taken away.
InstantSource From(const std::string& cluster, InstantSource::Base base, absl::Time base_at, absl::Time at) {
  InstantSource s;
  s.cluster = cluster;
  s.base = base;
  s.checkpoint = base_at;
  s.from = std::min(base_at, at);
  s.to = std::max(base_at, at);
  s.sign = base_at <= at ? 1 : -1;
  return s;
}

}  // namespace

std::vector<InstantSource> ChooseInstantSources(const std::vector<ClusterInstants>& clusters, absl::Time at,
                                                absl::Duration max_window) {
  std::vector<InstantSource> out;
  for (const ClusterInstants& c : clusters) {
    if (!c.earliest || at < *c.earliest) continue;
    // At or after the horizon every row has begun and every closed one
    // ended: what is current is the open rows, kept.
    if (!c.horizon || *c.horizon <= at) {
      out.push_back(From(c.cluster, InstantSource::Base::kNow, at, at));
      continue;
    }
    // Fewest changes first (uncounted last), then the nearest.
    auto cost = [at](const std::optional<int64_t>& changes, absl::Time base_at) {
      return std::make_pair(changes.value_or(INT64_MAX), absl::AbsDuration(base_at - at));
    };
    InstantSource best = From(c.cluster, InstantSource::Base::kNow, *c.horizon, at);
    auto best_cost = cost(c.changes_to_horizon, *c.horizon);
    for (const auto& [checkpoint, changes] :
         {std::make_pair(c.checkpoint_before, c.changes_before), std::make_pair(c.checkpoint_after, c.changes_after)}) {
      if (checkpoint && cost(changes, *checkpoint) < best_cost) {
        best = From(c.cluster, InstantSource::Base::kCheckpoint, *checkpoint, at);
        best_cost = cost(changes, *checkpoint);
      }
    }
    const bool counted = best_cost.first != INT64_MAX;
    if (best.to - best.from > max_window || (counted && best_cost.first >= kChangesCounted)) {
      best = From(c.cluster, InstantSource::Base::kFacts, at, at);
    }
    out.push_back(best);
  }
  return out;
}

}  // namespace fleetcap::store
