#include "common/time_util.h"

#include "absl/strings/str_cat.h"

namespace fleetcap {

absl::StatusOr<absl::Time> ParseRfc3339(absl::string_view field, absl::string_view text) {
  absl::Time t;
  std::string err;
  if (text.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": empty; expected an RFC 3339 timestamp such as 2026-01-01T00:00:00Z"));
  }
  if (!absl::ParseTime(absl::RFC3339_full, std::string(text), &t, &err)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": \"", text, "\" is not an RFC 3339 timestamp such as 2026-01-01T00:00:00Z (", err, ")"));
  }
  return t;
}

std::string FormatRfc3339(absl::Time t) { return absl::FormatTime("%Y-%m-%d%ET%H:%M:%E*SZ", t, absl::UTCTimeZone()); }

}  // namespace fleetcap
