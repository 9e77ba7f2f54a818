#pragma once
// Where the fleet summary at a past instant comes from, per cluster
// (migration 0036). What is current at t differs from what is current at s
// by the (hold, device row) pairs whose common span begins or ends between
// the two, so the summary at t is a known summary nearby plus or minus that
// change: the kept "now" (valid at and after the cluster's horizon) or a
// checkpoint before or after t. The one with the fewest changes between is
// taken (the nearest when they are not counted), since the change's cost
// grows with them; past `kMaxChangeWindow` from any, or with
// `kChangesCounted` changes or more, the facts current at t are summed
// instead.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace fleetcap::store {

// Beyond this from any known summary, reading the changes would read more
// rows than what is current: a day of a fleet's starts and ends is about
// its live holds.
inline constexpr absl::Duration kMaxChangeWindow = absl::Hours(24);

// A source with this many holds begun or ended between it and the instant
// costs more than the facts current then at any fleet size this is read
// for: the facts are read instead. The statement counting them stops at
// this many starts and this many ends (pg_instant_sql.h's LIMITs).
inline constexpr int64_t kChangesCounted = 10000;

// What a cluster knows near the instant asked: its horizon and the earliest
// instant a fact of it names (none without a fact), and its nearest
// checkpoints at or before and after the instant.
struct ClusterInstants {
  std::string cluster;
  std::optional<absl::Time> horizon;
  std::optional<absl::Time> earliest;
  std::optional<absl::Time> checkpoint_before;  // at or before the instant
  std::optional<absl::Time> checkpoint_after;   // after it
  // How many holds began or ended between the instant and each of those
  // (the horizon's only when counted); a source with fewer is taken first.
  std::optional<int64_t> changes_before;
  std::optional<int64_t> changes_after;
  std::optional<int64_t> changes_to_horizon;
};

struct InstantSource {
  enum class Base { kNow, kCheckpoint, kFacts };
  std::string cluster;
  Base base = Base::kFacts;
  absl::Time checkpoint;  // kCheckpoint: its instant
  // The change to add, as `sign` times (current at `to`) less (current at
  // `from`); from == to when the base is current at the instant itself.
  absl::Time from;
  absl::Time to;
  int sign = 1;
};

// For each cluster, the base with the fewest changes to `at` and the change;
// none for a cluster with nothing current at `at` because no fact of it
// begins that early (the changes up to its first checkpoint would be all it
// ever held).
std::vector<InstantSource> ChooseInstantSources(const std::vector<ClusterInstants>& clusters, absl::Time at,
                                                absl::Duration max_window = kMaxChangeWindow);

}  // namespace fleetcap::store
