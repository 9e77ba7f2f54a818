#include "tests/fuzz/fuzz_target.h"

#include "common/handler_stack.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int result = 0;
  fleetcap::RunOnHandlerStack([&] { result = fleetcap::fuzz::FuzzOneInput(data, size); });
  return result;
}
