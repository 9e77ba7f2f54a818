#pragma once
// Instants and windows as a person types them on fleetcapctl's command line
// (docs/chargeback.md, "From the command line"): an RFC 3339 instant as
// given, or one relative to now, so that "the last 30 days" or "this month"
// needs no date arithmetic by hand.

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace fleetcap::ctl {

// How an instant relative to now is cut: down to the start of its hour for
// the commands whose windows are whole hours (chargeback), to the second
// otherwise. An RFC 3339 instant is never cut: the server says what it
// refuses.
enum class Align { kSecond, kHour };

// `text` as an instant: RFC 3339; "now"; "today" or "yesterday" (00:00 UTC
// of that day); "week-start" (Monday 00:00 UTC); "month-start" or
// "last-month-start" (the first of this or the previous month, 00:00 UTC);
// or "-N" and a unit, h, d or w, before now ("-12h", "-7d", "-2w"). Anything
// else is INVALID_ARGUMENT naming `flag` and the forms it takes.
absl::StatusOr<absl::Time> ParseInstantFlag(absl::string_view flag, absl::string_view text, absl::Time now,
                                            Align align);

// `text` as a length: N and a unit, h, d or w ("30d"), N at least 1, at most
// 100 years.
absl::StatusOr<absl::Duration> ParseLengthFlag(absl::string_view flag, absl::string_view text);

// A window [start, end) from the flags that name it: either a length back
// from now (`last`: [now - length, now), now cut by `align`), or a start and
// an end, the end now when not given. `names` are the flags' names as
// printed in errors, e.g. {"--from", "--to", "--last"}.
struct WindowFlagNames {
  const char* start;
  const char* end;
  const char* last;
};
struct WindowFlags {
  std::string start, end, last;
};
struct Window {
  absl::Time start, end;
};
// Without a start or `last`, the start is `end - default_length`, or, with
// no default length, INVALID_ARGUMENT. `last` with a start or an end is
// INVALID_ARGUMENT, as is an end not after the start.
absl::StatusOr<Window> ParseWindowFlags(const WindowFlagNames& names, const WindowFlags& flags, absl::Time now,
                                        Align align, absl::Duration default_length = absl::ZeroDuration());

}  // namespace fleetcap::ctl
