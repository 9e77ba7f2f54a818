// fleetcap-api: serves the gRPC API and its HTTP/JSON gateway.
// `fleetcap-api init` creates the first admin token of a new installation
// and prints its secret once.

#include <iostream>

#include "common/exit.h"
#include "fleetcap_version.h"
#include "services/api/api_command.h"
#include "services/api/init_command.h"

int main(int argc, char** argv) {
  using namespace fleetcap;
  auto options = api::ParseApiFlags(Args(argc, argv), ProcessEnvironment());
  if (!options.ok()) return ExitCode("fleetcap-api", options.status(), kExitUsage);
  if (!options->daemon.help.empty()) {
    std::cout << options->daemon.help;
    return kExitOk;
  }
  if (options->version) {
    std::cout << "fleetcap-api " << FLEETCAP_VERSION << "\n";
    return kExitOk;
  }
  if (options->init) {
    return ExitCode("fleetcap-api init", api::RunInit(options->daemon, options->init_ttl, std::cout, std::cerr));
  }
  return ExitCode("fleetcap-api", api::RunApi(*options));
}
