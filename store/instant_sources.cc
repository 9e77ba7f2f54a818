#include "store/instant_sources.h"

#include <algorithm>

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
    InstantSource best = From(c.cluster, InstantSource::Base::kNow, *c.horizon, at);
    for (const auto& checkpoint : {c.checkpoint_before, c.checkpoint_after}) {
      if (checkpoint && absl::AbsDuration(*checkpoint - at) < best.to - best.from) {
        best = From(c.cluster, InstantSource::Base::kCheckpoint, *checkpoint, at);
      }
    }
    if (best.to - best.from > max_window) {
      best = From(c.cluster, InstantSource::Base::kFacts, at, at);
    }
    out.push_back(best);
  }
  return out;
}

}  // namespace fleetcap::store
