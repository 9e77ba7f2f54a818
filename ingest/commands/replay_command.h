#pragma once
// `fleetcap-ingest replay`: stores a published cluster trace as one cluster's inventory.

#include <string>
#include <vector>

namespace fleetcap::ingest {

// Runs the command on the arguments after its name; returns the exit code.
int RunReplayCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::ingest
