#pragma once
// The openb trace has no team or namespace column, yet reports are per team.
// Teams are therefore derived from the pod's serial number, deterministically,
// so every replay and every reader of the data agrees on them.

#include <string>

#include "absl/strings/string_view.h"

namespace fleetcap::openb {

inline constexpr int kOpenbTeamCount = 12;

struct OpenbTeam {
  std::string team;
  std::string namespace_name;
};

// `openb-pod-NNNN` → team `team-XX`, XX = NNNN mod 12 as two digits, in the
// namespace of the same name. Any other name → team "unassigned" in the
// namespace "default".
OpenbTeam TeamForOpenbPod(absl::string_view pod_name);

}  // namespace fleetcap::openb
