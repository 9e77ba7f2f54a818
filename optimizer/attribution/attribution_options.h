#pragma once
// The policy's attribution options (docs/policy.md, `attribution`) as the
// engine uses them, checked once.

#include "absl/status/statusor.h"
#include "policy/policy_document.h"

namespace fleetcap::attribution {

enum class Basis { kRequest, kUsage, kMax };
enum class IdleRule { kShare, kEven, kKeep };

struct Options {
  Basis basis = Basis::kRequest;
  IdleRule idle = IdleRule::kShare;
  bool idle_per_node = false;  // idle_scope: node (else cluster)
  bool shared_even = false;    // shared_spread: even (else weighted)
};

// An error names the field and the value it does not know.
absl::StatusOr<Options> ParseOptions(const policy::Attribution& a);

}  // namespace fleetcap::attribution
