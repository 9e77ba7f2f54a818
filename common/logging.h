#pragma once
// Named spdlog loggers on stderr. Each component logs through its own name
// ("api", "ingest", "store", ...) so operators can tell who spoke.

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "spdlog/spdlog.h"

namespace fleetcap {

// INVALID_ARGUMENT naming --log-level unless `level` is one of trace, debug,
// info, warn, error, critical or off. Pure, for flag parsers.
absl::Status CheckLogLevel(const std::string& level);

// Sets the global level (see CheckLogLevel) and the line format.
absl::Status InitLogging(const std::string& level);

// The logger called `name`, created on first use.
std::shared_ptr<spdlog::logger> Logger(const std::string& name);

}  // namespace fleetcap
