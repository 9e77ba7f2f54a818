#pragma once
// The stack every thread that handles outside input runs on: the HTTP
// servers' request handlers (common/http_server.h) and the fuzz targets,
// which run each input on a thread of exactly this size so that a parser
// that recurses too deep for a handler is caught there first.
//
// Parsers of outside input also refuse nesting past their documented depth
// before they recurse (docs/security.md); this size is what makes those
// limits safe with a wide margin, not a replacement for them.

#include <cstddef>
#include <functional>

namespace fleetcap {

inline constexpr size_t kHandlerStackBytes = size_t{8} << 20;

// Runs `work` on a new thread whose stack is kHandlerStackBytes and waits for it.
void RunOnHandlerStack(const std::function<void()>& work);

}  // namespace fleetcap
