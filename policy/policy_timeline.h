#pragma once
// The policy versions over time, for resolving facts with the version in
// force when they happened. A version takes effect when it is applied (the
// store's applied_at) and stays in force until the next one; the first
// version also covers everything before it, since no other policy existed.
// A document carries no effective time of its own: a team mapping applied
// today never rewrites yesterday's bills (prices, which are effective-dated
// in the document, are the one thing planned ahead).
//
// Versions never change once stored, so each is read and parsed once;
// Refresh() reads only versions newer than the newest known. A stored
// document that no longer parses (a stricter parser than the one that
// accepted it) is passed over, logged once: the version before it stays in
// force, and it costs only itself.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "policy/team_resolution.h"

namespace fleetcap::policy {

struct StoredPolicy {
  int32_t version = 0;
  absl::Time applied_at;
  std::string document;
};

struct PolicyInForce {
  int32_t version = 0;  // 0: no policy was ever applied
  absl::Time from = absl::InfinitePast();
  absl::Time to = absl::InfiniteFuture();  // when the next version took effect
  std::shared_ptr<const TeamResolver> teams;
};

// Thread-safe.
class PolicyTimeline {
 public:
  static constexpr int32_t kEveryVersion = std::numeric_limits<int32_t>::max();

  // The stored versions numbered above `after_version`, in any order.
  using Fetch = std::function<absl::StatusOr<std::vector<StoredPolicy>>(int32_t after_version)>;

  explicit PolicyTimeline(Fetch fetch) : fetch_(std::move(fetch)) {}

  // Reads the versions applied since the last call.
  absl::Status Refresh();

  // The version in force at `t`. With `up_to`, as if no version numbered
  // above it had been applied yet: what a request authorised under version
  // `up_to` is answered with.
  PolicyInForce At(absl::Time t, int32_t up_to = kEveryVersion) const;
  // Every version in force at some time of [start, end), in time order; `up_to` as for At.
  std::vector<PolicyInForce> During(absl::Time start, absl::Time end, int32_t up_to = kEveryVersion) const;
  // Versions passed over because their document no longer parses.
  int skipped() const;

 private:
  std::vector<PolicyInForce> Snapshot(int32_t up_to) const;

  Fetch fetch_;
  mutable std::mutex mu_;
  int32_t newest_ = 0;  // the highest version read, parsed or not
  int skipped_ = 0;
  std::vector<PolicyInForce> versions_;  // parsed ones, by version; `to` filled in by Snapshot
};

}  // namespace fleetcap::policy
