#pragma once
// How deeply JSON text nests, measured without parsing it, so that a
// recursive parser (protobuf's JSON parser for request bodies, nlohmann::json
// for Kubernetes objects and Prometheus answers) never sees a document deeper
// than kMaxNestingDepth.

#include <optional>

#include "absl/strings/string_view.h"
#include "common/nesting.h"

namespace fleetcap {

// The first `[` or `{` that opens level kMaxNestingDepth + 1 of `text`, or
// nullopt. Brackets inside strings do not count. Strings may be quoted with
// `"` or `'` (protobuf's parser accepts both; for a parser that does not, the
// `'` is an error before anything it would hide), so the count never falls
// below what a parser sees, whatever the text.
std::optional<NestingProblem> CheckJsonNesting(absl::string_view text);

}  // namespace fleetcap
