#pragma once
// `fleetcapctl insights rightsize`: the latest rightsizing recommendations
// (InsightsService.GetRightsizing, docs/insights.md, "Rightsizing").

#include <vector>

#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> InsightsRightsizingCommands();

}  // namespace fleetcap::ctl
