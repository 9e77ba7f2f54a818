#include "common/json_nesting.h"

#include "absl/strings/str_cat.h"

namespace fleetcap {

std::optional<NestingProblem> CheckJsonNesting(absl::string_view text) {
  int depth = 0, line = 1;
  size_t line_start = 0;
  char quote = 0;  // the quote of the string the scan is in, else 0
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    if (quote != 0) {
      if (c == '\\' && i + 1 < text.size()) {
        // The escaped character, even a quote, stays in the string.
        if (text[++i] == '\n') {
          ++line;
          line_start = i + 1;
        }
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    switch (c) {
      case '"':
      case '\'':
        quote = c;
        break;
      case '[':
      case '{':
        if (++depth > kMaxNestingDepth) {
          return NestingProblem{line, static_cast<int>(i - line_start) + 1,
                                absl::StrCat("nested deeper than ", kMaxNestingDepth, " levels")};
        }
        break;
      case ']':
      case '}':
        // More closings than openings is an error for the parser; it reads no further.
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return std::nullopt;
}

}  // namespace fleetcap
