#pragma once
// `fleetcap-ingest k8s --cluster NAME ...`: keeps the store's inventory of one
// Kubernetes cluster exact, from its API (list then watch).

#include <string>
#include <vector>

namespace fleetcap::ingest {

// Runs the command on the arguments after its name; returns the exit code.
int RunK8sCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::ingest
