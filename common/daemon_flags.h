#pragma once
// The flags every fleetcap daemon and command shares (DESIGN.md's user-facing
// contract): --db (env FLEETCAP_DB), --migrate, --metrics-listen, --log-level.

#include <string>

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/flags.h"

namespace fleetcap {

struct DaemonFlags {
  std::string db;
  bool migrate = false;
  std::string metrics_listen;
  std::string log_level = "info";

  void Register(FlagSet& flags);

  // What every command does first: parses `args` against `flags` (on which
  // these flags are registered), prints --help and answers false, refuses
  // positional arguments, and sets up logging at --log-level.
  absl::StatusOr<bool> ParseCommand(FlagSet& flags, const std::vector<std::string>& args) const;

  // INVALID_ARGUMENT naming --db when no database was given.
  absl::Status RequireDb() const;
};

}  // namespace fleetcap
