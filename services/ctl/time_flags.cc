#include "services/ctl/time_flags.h"

#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"

namespace fleetcap::ctl {
namespace {

constexpr char kInstantForms[] =
    "RFC 3339, now, today, yesterday, week-start, month-start, last-month-start, or -N with h, d or w (-7d)";

// The longest length taken: far past any store's history, and far from
// absl::Duration's limits.
constexpr absl::Duration kLongest = absl::Hours(24 * 366 * 100);

absl::Time CutToHour(absl::Time t) {
  return absl::FromCivil(absl::CivilHour(absl::ToCivilHour(t, absl::UTCTimeZone())), absl::UTCTimeZone());
}

absl::Time Cut(absl::Time t, Align align) {
  return align == Align::kHour ? CutToHour(t) : absl::FromUnixSeconds(absl::ToUnixSeconds(t));
}

// `text` as N and a unit (h, d, w) into `length`; false when it is not one.
bool ParseLength(absl::string_view text, absl::Duration* length) {
  if (text.size() < 2) return false;
  const char unit = absl::ascii_tolower(text.back());
  const absl::string_view digits = text.substr(0, text.size() - 1);
  for (char c : digits) {
    if (!absl::ascii_isdigit(c)) return false;  // no sign, no spaces, no fraction
  }
  int64_t n = 0;
  if (digits.size() > 9 || !absl::SimpleAtoi(digits, &n) || n < 1) return false;
  const absl::Duration per = unit == 'h'   ? absl::Hours(1)
                             : unit == 'd' ? absl::Hours(24)
                             : unit == 'w' ? absl::Hours(24 * 7)
                                           : absl::ZeroDuration();
  if (per == absl::ZeroDuration() || per * n > kLongest) return false;
  *length = per * n;
  return true;
}

}  // namespace

absl::StatusOr<absl::Time> ParseInstantFlag(absl::string_view flag, absl::string_view text, absl::Time now,
                                            Align align) {
  const absl::TimeZone utc = absl::UTCTimeZone();
  const absl::CivilDay today = absl::ToCivilDay(now, utc);
  const std::string word = absl::AsciiStrToLower(text);
  if (word == "now") return Cut(now, align);
  if (word == "today") return absl::FromCivil(today, utc);
  if (word == "yesterday") return absl::FromCivil(today - 1, utc);
  if (word == "week-start") return absl::FromCivil(absl::PrevWeekday(today + 1, absl::Weekday::monday), utc);
  if (word == "month-start") return absl::FromCivil(absl::CivilMonth(today), utc);
  if (word == "last-month-start") return absl::FromCivil(absl::CivilMonth(today) - 1, utc);
  absl::Duration back;
  if (!text.empty() && text.front() == '-' && ParseLength(text.substr(1), &back)) return Cut(now - back, align);
  if (!text.empty() && absl::ascii_isdigit(text.front())) {
    if (auto t = ParseRfc3339(flag, text); t.ok()) return t;
  }
  return absl::InvalidArgumentError(absl::StrCat(flag, ": \"", text, "\" is not an instant: give ", kInstantForms));
}

absl::StatusOr<absl::Duration> ParseLengthFlag(absl::string_view flag, absl::string_view text) {
  absl::Duration length;
  if (ParseLength(text, &length)) return length;
  return absl::InvalidArgumentError(
      absl::StrCat(flag, ": \"", text, "\" is not a length: give N with h, d or w (30d), at most 100 years"));
}

absl::StatusOr<Window> ParseWindowFlags(const WindowFlagNames& names, const WindowFlags& flags, absl::Time now,
                                        Align align, absl::Duration default_length) {
  if (!flags.last.empty()) {
    if (!flags.start.empty() || !flags.end.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(names.last, ": give either it or ", names.start, " and ", names.end, ", not both"));
    }
    FLEETCAP_ASSIGN_OR_RETURN(const absl::Duration length, ParseLengthFlag(names.last, flags.last));
    const absl::Time end = Cut(now, align);
    return Window{end - length, end};
  }
  Window window;
  if (flags.end.empty()) {
    window.end = Cut(now, align);
  } else {
    FLEETCAP_ASSIGN_OR_RETURN(window.end, ParseInstantFlag(names.end, flags.end, now, align));
  }
  if (!flags.start.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(window.start, ParseInstantFlag(names.start, flags.start, now, align));
  } else if (default_length > absl::ZeroDuration()) {
    window.start = window.end - default_length;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(names.start, ": missing; give the window's start (", kInstantForms,
                                                   ") or ", names.last, " (e.g. 30d)"));
  }
  if (window.end <= window.start) {
    return absl::InvalidArgumentError(absl::StrCat(names.end, ": ", FormatRfc3339(window.end), " is not after ",
                                                   names.start, " ", FormatRfc3339(window.start)));
  }
  return window;
}

}  // namespace fleetcap::ctl
