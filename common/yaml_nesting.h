#pragma once
// How deeply a YAML document nests, checked before it is loaded into nodes.
// yaml-cpp's parser recurses once per level of nesting (flow `[[[`, block
// indentation, `- - -` on one line alike), and the load that follows would
// also build every level; a document deeper than kMaxNestingDepth is refused
// first, with the line of the collection that went too deep.
//
// The check is yaml-cpp's own event parser, stopped at the first collection
// that opens level kMaxNestingDepth + 1. So it reads the text exactly as the
// load after it does (quotes, comments, block scalars and all: there is no
// second grammar that could count lower), and its own recursion ends at the
// limit. Only the first document is read, as YAML::Load does.
//
// Aliases (`*a`) make one written node appear many times to whatever walks
// the loaded document ("billion laughs"): the check also refuses a document
// whose aliases would add more than kMaxYamlAliasedNodes nodes, and an alias
// to a node that contains it (a cycle, which a walker would follow forever).

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "common/nesting.h"

namespace fleetcap {

inline constexpr uint64_t kMaxYamlAliasedNodes = 100'000;

// The first problem of `text`'s first document, or nullopt. A document that is
// not valid YAML has no problem here as far as it could be read: the load
// after this check reports why it is not valid, as it always has.
std::optional<NestingProblem> CheckYamlNesting(absl::string_view text);

}  // namespace fleetcap
