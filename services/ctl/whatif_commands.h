#pragma once
// `fleetcapctl whatif SCENARIO.yaml [--save NAME] [--format table|json]`:
// a what-if scenario compared with the baseline (PlanningService.RunScenario,
// or SaveScenario with --save). docs/whatif.md describes the document.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> WhatIfCommands();

// The scenario file's text (ReadWholeFile, common/file_read.h): NOT_FOUND
// naming the file when it cannot be read, INVALID_ARGUMENT when it is larger
// than the API accepts (64 KiB).
absl::StatusOr<std::string> ReadScenarioFile(const std::string& path);

}  // namespace fleetcap::ctl
