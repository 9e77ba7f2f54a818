// Fuzz target: a what-if scenario document, as a planner sends it to
// `POST /v1/scenarios/run` or `fleetcapctl whatif`. Like a policy, any text
// must give a document or a list of errors, never an exception or a crash.

#include <cstdint>
#include <cstdlib>

#include "optimizer/whatif/scenario_parser.h"
#include "policy/policy_parser.h"
#include "tests/fuzz/fuzz_target.h"

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  const whatif::ParsedScenario parsed =
      whatif::ParseScenario(absl::string_view(reinterpret_cast<const char*>(data), size));
  for (const policy::PolicyError& e : parsed.errors) {
    if (e.line < 0 || e.column < 0) std::abort();
  }
  (void)policy::FormatPolicyErrors("fuzz.yaml", parsed.errors);
  return 0;
}
