#pragma once
// The one limit on how deeply a document from outside may nest, and what a
// refusal says. Every parser of outside input (YAML documents, JSON bodies
// and objects) checks it before its recursive parser runs
// (common/yaml_nesting.h, common/json_nesting.h); docs/security.md, "Nesting".
//
// 64 levels is several times what any document of fleetcap needs (a policy
// nests 4 deep) and, with the parsers' frames, a small fraction of even a
// 128 KiB stack, so the limit holds on any thread, not only the handlers'.

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace fleetcap {

inline constexpr int kMaxNestingDepth = 64;

// Where and why a document was refused before parsing; line and column count from 1.
struct NestingProblem {
  int line = 0;
  int column = 0;
  std::string message;  // "nested deeper than 64 levels"
};

// INVALID_ARGUMENT "<what>: line <line>: <message>", e.g. "policy: line 3: nested deeper than 64 levels".
absl::Status NestingError(absl::string_view what, const NestingProblem& problem);

// NestingError for `problem` when there is one, else OK.
absl::Status NestingStatus(absl::string_view what, const std::optional<NestingProblem>& problem);

}  // namespace fleetcap
