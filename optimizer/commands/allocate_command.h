#pragma once
// `fleetcap-optimizer allocate --policy FILE --demand FILE --format json|table`:
// the allocation engine run offline, with no database (docs/allocation.md).

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/clock.h"

namespace fleetcap::optimizer {

struct AllocateOptions {
  std::string policy_path;
  std::string demand_path;
  std::string format = "table";  // table or json
  std::string help;              // set on --help: print it and do nothing else
  bool heterogeneity = false;    // divide by the policy's throughput matrix (Clp); last, so
                                 // the positional initialisers above keep their meaning
};

// The options in `args` (after "allocate"), or INVALID_ARGUMENT naming the flag.
absl::StatusOr<AllocateOptions> ParseAllocateFlags(const std::vector<std::string>& args);

// Reads both files, solves and writes the recommendations to `out`: a table,
// or the API's RecommendationSet as proto3 JSON (run id and policy version
// 0, computed at `clock`'s now). A file that cannot be read or does not
// validate is a CommandLineError listing every problem with its file and line.
absl::Status RunAllocate(const AllocateOptions& options, std::ostream& out, const Clock& clock);

// Parses and runs; returns the exit code.
int RunAllocateCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::optimizer
