#include "optimizer/allocation/recommendation_json.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace fleetcap::allocation {
namespace {

// The code points protobuf's JSON printer writes as \uXXXX besides the
// ASCII controls: C1 controls, soft hyphen, and format characters that
// render invisibly or reorder text.
bool EscapedCodePoint(uint32_t cp) {
  return cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || cp == 0xad || (cp >= 0x600 && cp <= 0x603) || cp == 0x6dd ||
         cp == 0x70f || cp == 0x17b4 || cp == 0x17b5 || (cp >= 0x200b && cp <= 0x200f) ||
         (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x206a && cp <= 0x206f) ||
         cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0x1d173 && cp <= 0x1d17a) || cp == 0xe0001 ||
         (cp >= 0xe0020 && cp <= 0xe007f);
}

// The code point starting at `s[i]` and its length in bytes. The input is
// valid UTF-8; a sequence cut short by the end is taken a byte at a time.
uint32_t DecodeUtf8(const std::string& s, size_t i, size_t* length) {
  const auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[k])); };
  const uint32_t b0 = byte(i);
  *length = b0 < 0x80 ? 1 : b0 < 0xe0 ? 2 : b0 < 0xf0 ? 3 : 4;
  if (i + *length > s.size()) *length = 1;
  switch (*length) {
    case 2:
      return ((b0 & 0x1f) << 6) | (byte(i + 1) & 0x3f);
    case 3:
      return ((b0 & 0x0f) << 12) | ((byte(i + 1) & 0x3f) << 6) | (byte(i + 2) & 0x3f);
    case 4:
      return ((b0 & 0x07) << 18) | ((byte(i + 1) & 0x3f) << 12) | ((byte(i + 2) & 0x3f) << 6) | (byte(i + 3) & 0x3f);
    default:
      return b0;
  }
}

void AppendUnicodeEscape(uint32_t cp, std::string* out) {
  if (cp > 0xffff) {
    cp -= 0x10000;
    absl::StrAppendFormat(out, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
  } else {
    absl::StrAppendFormat(out, "\\u%04x", cp);
  }
}

// One member: `indent` spaces, the name, and the value as given.
void Member(int indent, const char* name, const std::string& value, bool last, std::string* out) {
  absl::StrAppend(out, std::string(indent, ' '), "\"", name, "\": ", value, last ? "\n" : ",\n");
}

// int64 fields are JSON strings in proto3 JSON (a double would lose digits).
std::string Int64(int64_t v) { return absl::StrCat("\"", v, "\""); }

}  // namespace

std::string ProtoJsonString(const std::string& utf8) {
  std::string out = "\"";
  for (size_t i = 0; i < utf8.size();) {
    size_t length = 1;
    const uint32_t cp = DecodeUtf8(utf8, i, &length);
    switch (cp) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      case '<':
      case '>':
        AppendUnicodeEscape(cp, &out);
        break;
      default:
        if (EscapedCodePoint(cp)) {
          AppendUnicodeEscape(cp, &out);
        } else {
          out.append(utf8, i, length);
        }
    }
    i += length;
  }
  out += "\"";
  return out;
}

std::string ProtoJsonTimestamp(absl::Time t) {
  const absl::Time second = absl::FromUnixSeconds(absl::ToUnixSeconds(t));  // toward the past: nanos >= 0
  const int64_t nanos = absl::ToInt64Nanoseconds(t - second);
  std::string out = absl::FormatTime("%E4Y-%m-%dT%H:%M:%S", second, absl::UTCTimeZone());
  if (nanos == 0) {
    // whole seconds: no fraction
  } else if (nanos % 1'000'000 == 0) {
    absl::StrAppendFormat(&out, ".%03d", nanos / 1'000'000);
  } else if (nanos % 1'000 == 0) {
    absl::StrAppendFormat(&out, ".%06d", nanos / 1'000);
  } else {
    absl::StrAppendFormat(&out, ".%09d", nanos);
  }
  return out + "Z";
}

std::string RecommendationSetJson(const RecommendationSetHeader& header,
                                  const std::vector<Recommendation>& recommendations) {
  // protobuf 3.21's printer writes the fields that always print (the
  // non-optional primitives and the lists) in declaration order, then the
  // present message and `optional` fields in field-number order.
  std::string out = "{\n";
  Member(1, "runId", Int64(header.run_id), false, &out);
  Member(1, "policyVersion", absl::StrCat(header.policy_version), false, &out);
  if (recommendations.empty()) {
    Member(1, "recommendations", "[]", false, &out);
  } else {
    out += " \"recommendations\": [\n";
    for (size_t i = 0; i < recommendations.size(); ++i) {
      const Recommendation& r = recommendations[i];
      const bool unlimited = !r.borrowing_limit_milli.has_value();
      out += "  {\n";
      Member(3, "team", ProtoJsonString(r.team), false, &out);
      Member(3, "flavor", ProtoJsonString(r.flavor), false, &out);
      Member(3, "demandMilli", Int64(r.demand_milli), false, &out);
      Member(3, "guaranteeMilli", Int64(r.guarantee_milli), false, &out);
      Member(3, "recommendedMilli", Int64(r.recommended_milli), false, &out);
      Member(3, "lendingLimitMilli", Int64(r.lending_limit_milli), false, &out);
      Member(3, "boundBy", ProtoJsonString(r.bound_by), false, &out);
      Member(3, "explanation", ProtoJsonString(r.explanation), unlimited, &out);
      if (!unlimited) Member(3, "borrowingLimitMilli", Int64(*r.borrowing_limit_milli), true, &out);
      out += i + 1 < recommendations.size() ? "  },\n" : "  }\n";
    }
    out += " ],\n";
  }
  Member(1, "previousRunId", Int64(header.previous_run_id), false, &out);
  Member(1, "computedAt", ProtoJsonString(ProtoJsonTimestamp(header.computed_at)), true, &out);
  out += "}\n";
  return out;
}

}  // namespace fleetcap::allocation
