#pragma once
// RFC 3339 timestamps at the edges of the system (flags, HTTP queries, JSON).
// Inside, time is absl::Time, always UTC.

#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap {

// Parses an RFC 3339 timestamp ("2026-01-01T00:00:00Z", offsets and
// fractional seconds allowed). `field` names the input in the error message.
absl::StatusOr<absl::Time> ParseRfc3339(absl::string_view field, absl::string_view text);

// Formats as RFC 3339 in UTC with a `Z` suffix; sub-second digits only when present.
std::string FormatRfc3339(absl::Time t);

}  // namespace fleetcap
