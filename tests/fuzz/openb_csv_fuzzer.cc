// Fuzz target: a trace CSV file, read as a node list and as a pod list (the
// header decides which one gets past the column check), as `fleetcap-ingest
// replay` reads a trace directory someone downloaded.

#include <cstdint>

#include "ingest/openb/openb_trace.h"
#include "tests/fuzz/fuzz_file.h"
#include "tests/fuzz/fuzz_target.h"

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  using namespace fleetcap::openb;
  const std::string path = fleetcap::fuzz::WriteInputFile("trace.csv", data, size);
  (void)ReadOpenbNodes(path);
  (void)ReadOpenbPods(path);
  return 0;
}
