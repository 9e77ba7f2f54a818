#pragma once
// The shapes of the strings the control plane accepts, and fixed-point
// decimals. Names are short ASCII identifiers; free text is bounded, valid
// UTF-8 without control characters. Anything else is rejected before it
// reaches storage, so nothing a caller sends is ever interpreted.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fleetcap::policy {

// 1..63 of [A-Za-z0-9._-], starting with a letter or digit ("team-00", "H100-SXM5-80GB").
bool IsName(absl::string_view s);
// A Kubernetes label key: 1..253 of [A-Za-z0-9._/-], starting with a letter or digit.
bool IsLabelKey(absl::string_view s);
// A glob over names: 1..63 of [A-Za-z0-9._-*?].
bool IsGlob(absl::string_view s);
// Glob match: `*` any run, `?` one character (common/glob.h).
bool GlobMatch(absl::string_view pattern, absl::string_view text);
// Well-formed UTF-8 (no overlongs, no surrogates).
bool IsValidUtf8(absl::string_view s);
// Valid UTF-8, at most `max_bytes`, no control characters except tab and
// (when `multiline`) newline and carriage return.
absl::Status CheckFreeText(absl::string_view field, absl::string_view s, size_t max_bytes, bool multiline);

// "12.5" with at most `decimals` digits after the point -> 12500 (decimals 3).
// A leading '-' is accepted (callers reject negatives with their own words).
absl::StatusOr<int64_t> ParseDecimal(absl::string_view text, int decimals);
// 12500, 3 -> "12.5"; keeps at least `min_decimals` digits after the point.
std::string FormatDecimal(int64_t value, int decimals, int min_decimals = 0);
// Milli-devices as devices in messages: 1500 -> "1.5".
inline std::string FormatDevices(int64_t milli) { return FormatDecimal(milli, 3); }

}  // namespace fleetcap::policy
