#include "ingest/k8s/quantity.h"

#include <cctype>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace fleetcap::k8s {
namespace {

__extension__ using Int128 = __int128;

absl::Status Bad(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("\"", text, "\" is not a resource quantity (", why, ")"));
}

// The suffixes that scale by a power of ten or of two.
struct QuantitySuffix {
  absl::string_view text;
  int exp10;
  int exp2;
};
constexpr QuantitySuffix kQuantitySuffixes[] = {
    {"", 0, 0},    {"n", -9, 0},  {"u", -6, 0},  {"m", -3, 0},  {"k", 3, 0},   {"M", 6, 0},
    {"G", 9, 0},   {"T", 12, 0},  {"P", 15, 0},  {"E", 18, 0},  {"Ki", 0, 10}, {"Mi", 0, 20},
    {"Gi", 0, 30}, {"Ti", 0, 40}, {"Pi", 0, 50}, {"Ei", 0, 60},
};

// Adds the suffix's scale (a named one, or an exponent such as "e3") to exp10 and exp2.
absl::Status ApplyQuantitySuffix(absl::string_view text, absl::string_view suffix, int& exp10, int& exp2) {
  for (const QuantitySuffix& known : kQuantitySuffixes) {
    if (suffix == known.text) {
      exp10 += known.exp10;
      exp2 = known.exp2;
      return absl::OkStatus();
    }
  }
  if (suffix[0] != 'e' && suffix[0] != 'E') return Bad(text, absl::StrCat("unknown suffix \"", suffix, "\""));
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
  return absl::OkStatus();
}

// mantissa * 10^exp10 * 2^exp2, rounded up to a whole number; "too large" past int64.
absl::StatusOr<Int128> ScaleQuantity(absl::string_view text, Int128 mantissa, int exp10, int exp2) {
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
  return value;
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
  int exp2 = 0;
  FLEETCAP_RETURN_IF_ERROR(ApplyQuantitySuffix(text, text.substr(i), exp10, exp2));
  exp10 += 3;  // milli-units
  FLEETCAP_ASSIGN_OR_RETURN(const Int128 value, ScaleQuantity(text, mantissa, exp10, exp2));
  return static_cast<int64_t>(negative ? -value : value);
}

}  // namespace fleetcap::k8s
