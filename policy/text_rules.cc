#include "policy/text_rules.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/glob.h"

namespace fleetcap::policy {
namespace {

bool AllOf(absl::string_view s, absl::string_view extra) {
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && extra.find(c) == absl::string_view::npos) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool IsName(absl::string_view s) {
  return !s.empty() && s.size() <= 63 && absl::ascii_isalnum(static_cast<unsigned char>(s[0])) && AllOf(s, "._-");
}

bool IsLabelKey(absl::string_view s) {
  return !s.empty() && s.size() <= 253 && absl::ascii_isalnum(static_cast<unsigned char>(s[0])) && AllOf(s, "._/-");
}

bool IsGlob(absl::string_view s) { return !s.empty() && s.size() <= 63 && AllOf(s, "._-*?"); }

bool GlobMatch(absl::string_view pattern, absl::string_view text) { return ::fleetcap::GlobMatch(pattern, text); }

bool IsValidUtf8(absl::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + static_cast<size_t>(n) >= s.size()) return false;
    for (int k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += static_cast<size_t>(n) + 1;
  }
  return true;
}

absl::Status CheckFreeText(absl::string_view field, absl::string_view s, size_t max_bytes, bool multiline) {
  if (s.size() > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", s.size(), " bytes, expected at most ", max_bytes));
  }
  if (!IsValidUtf8(s)) return absl::InvalidArgumentError(absl::StrCat(field, ": not valid UTF-8"));
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u == '\t' || (multiline && (u == '\n' || u == '\r'))) continue;
    if (u < 0x20 || u == 0x7F) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": control character 0x", absl::Hex(u, absl::kZeroPad2), " is not allowed"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ParseDecimal(absl::string_view text, int decimals) {
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", text, "\" is not a decimal number with at most ", decimals, " digits after the point"));
  };
  absl::string_view s = text;
  bool negative = false;
  if (!s.empty() && s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 40) return bad();
  const size_t dot = s.find('.');
  absl::string_view whole = s.substr(0, dot);
  absl::string_view frac = dot == absl::string_view::npos ? absl::string_view() : s.substr(dot + 1);
  if (whole.empty() || (dot != absl::string_view::npos && frac.empty()) ||
      frac.size() > static_cast<size_t>(decimals)) {
    return bad();
  }
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t value = 0;
  auto push = [&](char c) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
    const int d = c - '0';
    if (value > (kMax - d) / 10) return false;
    value = value * 10 + d;
    return true;
  };
  for (char c : whole) {
    if (!push(c)) return bad();
  }
  for (int k = 0; k < decimals; ++k) {
    if (!push(static_cast<size_t>(k) < frac.size() ? frac[static_cast<size_t>(k)] : '0')) return bad();
  }
  return negative ? -value : value;
}

std::string FormatDecimal(int64_t value, int decimals, int min_decimals) {
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  // Written backwards into one buffer, one string made at the end: the
  // allocation engine formats hundreds of thousands of these per run.
  // 10^19 does not fit uint64: more decimals than 18 never occur (3 for
  // devices, 6 for money), and are taken as 18.
  const int places = std::clamp(decimals, 0, 18);
  uint64_t scale = 1;
  for (int k = 0; k < places; ++k) scale *= 10;
  uint64_t whole = magnitude / scale;
  uint64_t frac = magnitude % scale;
  int kept = places;
  while (kept > min_decimals && frac % 10 == 0) {  // trailing zeros beyond min_decimals
    frac /= 10;
    --kept;
  }
  char buffer[48];
  char* const end = buffer + sizeof buffer;
  char* p = end;
  for (int k = 0; k < kept; ++k) {
    *--p = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  if (kept > 0) *--p = '.';
  do {
    *--p = static_cast<char>('0' + whole % 10);
    whole /= 10;
  } while (whole > 0);
  if (value < 0) *--p = '-';
  return std::string(p, end);
}

}  // namespace fleetcap::policy
