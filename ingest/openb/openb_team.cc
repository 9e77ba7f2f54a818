#include "ingest/openb/openb_team.h"

#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace fleetcap::openb {

OpenbTeam TeamForOpenbPod(absl::string_view pod_name) {
  constexpr absl::string_view kPrefix = "openb-pod-";
  if (!absl::StartsWith(pod_name, kPrefix) || pod_name.size() == kPrefix.size()) {
    return {"unassigned", "default"};
  }
  // Reduced digit by digit so any length of serial works without overflow.
  int remainder = 0;
  for (char c : pod_name.substr(kPrefix.size())) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return {"unassigned", "default"};
    remainder = (remainder * 10 + (c - '0')) % kOpenbTeamCount;
  }
  char team[16];
  std::snprintf(team, sizeof team, "team-%02d", remainder);
  return {team, team};
}

}  // namespace fleetcap::openb
