// Fuzz target: a policy document, as an admin applies it through the API or
// fleetcapctl. The parser must turn any text into a document or a list of
// errors, each formatted for the user, never an exception or a crash.

#include <cstdint>
#include <cstdlib>

#include "policy/policy_parser.h"
#include "tests/fuzz/fuzz_target.h"

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  using namespace fleetcap::policy;
  const ParsedPolicy parsed = ParsePolicy(absl::string_view(reinterpret_cast<const char*>(data), size));
  for (const PolicyError& e : parsed.errors) {
    if (e.line < 0 || e.column < 0) std::abort();
  }
  (void)FormatPolicyErrors("fuzz.yaml", parsed.errors);
  return 0;
}
