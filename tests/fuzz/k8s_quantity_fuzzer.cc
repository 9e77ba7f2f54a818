// Fuzz target: a Kubernetes resource quantity ("500m", "1Gi", "1e3"), which
// a tenant writes in every pod's requests and limits. Parsing is integer
// arithmetic on untrusted digits and exponents, so UBSan's overflow checks
// matter here as much as ASan's.

#include <cstdint>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "ingest/k8s/quantity.h"
#include "tests/fuzz/fuzz_target.h"

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  using fleetcap::k8s::ParseQuantityMilli;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto milli = ParseQuantityMilli(text);
  if (!milli.ok()) return 0;
  // A value read back in its milli form reads the same (rounding is up, to
  // the next milli, so milli-units are exact).
  auto again = ParseQuantityMilli(absl::StrCat(*milli, "m"));
  if (!again.ok() || *again != *milli) std::abort();
  return 0;
}
