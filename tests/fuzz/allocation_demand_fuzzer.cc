// Fuzz target: a demand.yaml, as anyone runs `fleetcap-optimizer allocate`
// on it, solved against a fixed policy (a three-level tree with guarantees
// and limits). Any text must give recommendations or a list of errors,
// never an exception or a crash; no recommendation may exceed its demand
// rounded up to whole devices (the policy's flavors are whole GPUs).

#include <cstdint>
#include <cstdlib>

#include "optimizer/allocation/offline_solver.h"
#include "services/exports/recommendation_set.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

constexpr const char* kPolicy = R"(version: 1
teams:
  - {name: corp, kind: org}
  - {name: research, parent: corp, weight: 2}
  - {name: vision, parent: research}
  - {name: nlp, parent: research}
  - {name: web, parent: corp}
  - {name: ops}
flavors:
  - {name: a100, model: A100-SXM4-80GB, capacity: 64}
  - {name: t4, model: T4, capacity: 100}
allocation:
  - {team: vision, flavor: a100, guarantee: 16, borrowing_limit: 8, lending_limit: 4}
  - {team: nlp, flavor: a100, guarantee: 8, weight: 3}
  - {team: ops, flavor: t4, guarantee: 20, lending_limit: 0}
)";

}  // namespace

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  using namespace fleetcap::allocation;
  SolverInput input{"policy.yaml", kPolicy, "fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size)};
  auto solved = SolveOffline(input);
  if (!solved.ok()) return 0;
  for (const Recommendation& r : *solved) {
    const int64_t whole_demand = (r.demand_milli + 999) / 1000 * 1000;
    if (r.recommended_milli < 0 || r.recommended_milli > whole_demand || r.recommended_milli % 1000 != 0) {
      std::abort();
    }
  }
  (void)fleetcap::exports::RecommendationSetJson(fleetcap::exports::RecommendationSetHeader{}, *solved);
  (void)RecommendationsTable(*solved);
  return 0;
}
