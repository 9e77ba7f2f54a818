#pragma once
// `fleetcap-ingest prometheus`: accelerator utilisation from Prometheus,
// pushed to its remote_write receiver and/or pulled with query_range, stored
// per minute in usage_minute.

#include <string>
#include <vector>

namespace fleetcap::ingest {

// Runs the command on the arguments after its name; returns the exit code.
int RunPrometheusCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::ingest
