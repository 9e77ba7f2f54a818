// fleetcap-optimizer: the chargeback of closed hours, computed from the
// store's facts and the policy (optimizer/commands/optimizer_command.h), and
// `allocate`, the offline allocation solver (allocate_command.h).

#include <iostream>

#include "common/exit.h"
#include "common/flags.h"
#include "fleetcap_version.h"
#include "optimizer/commands/optimizer_command.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args = fleetcap::Args(argc, argv);
  if (!args.empty() && args[0] == "--version") {
    std::cout << "fleetcap-optimizer " << FLEETCAP_VERSION << "\n";
    return fleetcap::kExitOk;
  }
  return fleetcap::optimizer::RunOptimizerCommand(args);
}
