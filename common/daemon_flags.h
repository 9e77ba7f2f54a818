#pragma once
// The flags every fleetcap daemon and command shares (DESIGN.md's user-facing
// contract): --db (env FLEETCAP_DB), --migrate, --metrics-listen, --log-level.

#include <string>

#include "absl/status/status.h"
#include "common/flags.h"

namespace fleetcap {

struct DaemonFlags {
  std::string db;
  bool migrate = false;
  std::string metrics_listen;
  std::string log_level = "info";

  void Register(FlagSet& flags);

  // INVALID_ARGUMENT naming --db when no database was given.
  absl::Status RequireDb() const;
};

}  // namespace fleetcap
