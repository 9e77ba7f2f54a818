#pragma once
// Globs over names (`*` any run of characters, `?` one), as the policy
// writes them (policy/text_rules.h, IsGlob: which clusters a flavor or a
// namespace rule covers), matched in one place for every layer: the policy's
// rules and the store's reads limited to a flavor's clusters.

#include "absl/strings/string_view.h"

namespace fleetcap {

// Whether `text` matches `pattern` whole. Linear in practice, never
// exponential (one backtrack point).
bool GlobMatch(absl::string_view pattern, absl::string_view text);

}  // namespace fleetcap
