#pragma once
// What every fuzz target defines instead of LLVMFuzzerTestOneInput. The one
// LLVMFuzzerTestOneInput (fuzz_target.cc, linked into every target by
// fleetcap_fuzz_target) runs it on a thread with the request handlers' stack
// (common/handler_stack.h), under libFuzzer and in the replay alike. A
// recursion too deep for a handler is then a crash here, as it would be in
// the API; on the fuzzer's own 8 MB main stack, a 104 KB handler's overflow
// went unseen (docs/security.md, "Nesting").

#include <cstddef>
#include <cstdint>

namespace fleetcap::fuzz {

// One input; the return value is libFuzzer's (0 keeps the input).
int FuzzOneInput(const uint8_t* data, size_t size);

}  // namespace fleetcap::fuzz
