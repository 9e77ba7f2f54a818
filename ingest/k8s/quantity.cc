#include "ingest/k8s/quantity.h"

#include <cctype>
#include <string>

#include "absl/strings/str_cat.h"

namespace fleetcap::k8s {
namespace {

__extension__ using Int128 = __int128;

absl::Status Bad(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("\"", text, "\" is not a resource quantity (", why, ")"));
}

}  // namespace

absl::StatusOr<int64_t> ParseQuantityMilli(absl::string_view text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  // Mantissa digits, with the position of the decimal point remembered as a
  // power of ten.
  Int128 mantissa = 0;
  int exp10 = 0;
  bool any_digit = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    any_digit = true;
    if (mantissa > (static_cast<Int128>(1) << 100)) {
      if (!point) ++exp10;  // keep the magnitude, drop precision far below a milli
      continue;
    }
    mantissa = mantissa * 10 + (c - '0');
    if (point) --exp10;
  }
  if (!any_digit) return Bad(text, "no digits");
  absl::string_view suffix = text.substr(i);
  int exp2 = 0;
  if (suffix.empty()) {
  } else if (suffix == "n") {
    exp10 -= 9;
  } else if (suffix == "u") {
    exp10 -= 6;
  } else if (suffix == "m") {
    exp10 -= 3;
  } else if (suffix == "k") {
    exp10 += 3;
  } else if (suffix == "M") {
    exp10 += 6;
  } else if (suffix == "G") {
    exp10 += 9;
  } else if (suffix == "T") {
    exp10 += 12;
  } else if (suffix == "P") {
    exp10 += 15;
  } else if (suffix == "E") {
    exp10 += 18;
  } else if (suffix == "Ki") {
    exp2 = 10;
  } else if (suffix == "Mi") {
    exp2 = 20;
  } else if (suffix == "Gi") {
    exp2 = 30;
  } else if (suffix == "Ti") {
    exp2 = 40;
  } else if (suffix == "Pi") {
    exp2 = 50;
  } else if (suffix == "Ei") {
    exp2 = 60;
  } else if (suffix[0] == 'e' || suffix[0] == 'E') {
    absl::string_view digits = suffix.substr(1);
    bool exp_negative = false;
    if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
      exp_negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty() || digits.size() > 3) return Bad(text, "bad exponent");
    int e = 0;
    for (char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return Bad(text, "bad exponent");
      e = e * 10 + (c - '0');
    }
    exp10 += exp_negative ? -e : e;
  } else {
    return Bad(text, absl::StrCat("unknown suffix \"", suffix, "\""));
  }
  exp10 += 3;  // milli-units
  const Int128 limit = static_cast<Int128>(INT64_MAX);
  Int128 value = mantissa;
  for (int k = 0; k < exp2; ++k) {
    value *= 2;
    if (value > limit) return Bad(text, "too large");
  }
  for (; exp10 > 0; --exp10) {
    value *= 10;
    if (value > limit) return Bad(text, "too large");
  }
  bool remainder = false;
  for (; exp10 < 0; ++exp10) {
    remainder = remainder || value % 10 != 0;
    value /= 10;
  }
  if (remainder) value += 1;  // round up, away from zero, as the API server does
  if (value > limit) return Bad(text, "too large");
  return static_cast<int64_t>(negative ? -value : value);
}

}  // namespace fleetcap::k8s
