// Fuzz target: a kubeconfig file, as an operator (or a tool generating one)
// gives it to fleetcap-ingest --kubeconfig. Any YAML must become a connection
// or an error naming the field, never an exception or a crash. File paths it
// names (certificate-authority, tokenFile, ...) are only recorded or read.

#include <cstdint>

#include "ingest/k8s/connection.h"
#include "tests/fuzz/fuzz_file.h"
#include "tests/fuzz/fuzz_target.h"

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  const std::string path = fleetcap::fuzz::WriteInputFile("kubeconfig", data, size);
  (void)fleetcap::k8s::LoadKubeconfig(path);
  return 0;
}
