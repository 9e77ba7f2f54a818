#include "services/ctl/whatif_commands.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/file_read.h"
#include "fleetcap/v1/planning.grpc.pb.h"
#include "services/ctl/client.h"
#include "services/ctl/whatif_format.h"

namespace fleetcap::ctl {
namespace {

// The API's bound on a scenario document (optimizer/whatif/scenario_parser.h).
constexpr size_t kMaxScenarioBytes = 64 * 1024;

int RunWhatIf(const std::vector<std::string>& args) {
  Invocation inv;
  std::string save;
  FlagSet flags("fleetcapctl whatif",
                "SCENARIO.yaml [--save NAME] [--format table|json] [flags]\n\n"
                "Applies a what-if scenario (added or removed devices, a team's demand scaled, a price\n"
                "changed, another policy version or a patch) to the current state without changing it,\n"
                "and prints it beside the baseline: recommendations per team and flavor, the projected\n"
                "bill of the next calendar month per team, and per flavor utilisation and the day\n"
                "capacity runs out. --save NAME stores the scenario and its result. Planners and admins\n"
                "only. docs/whatif.md describes the document.");
  flags.String("save", &save, "store the scenario and its result under this name");
  Parse(flags, inv, args, 1);
  if (inv.exit_code) return *inv.exit_code;
  auto yaml = ReadScenarioFile(inv.positional[0]);
  if (!yaml.ok()) return Fail(2, std::string(yaml.status().message()));
  if (!save.empty()) {
    v1::SaveScenarioRequest request;
    request.set_name(save);
    request.set_scenario_yaml(*yaml);
    v1::SavedScenario saved;
    grpc::Status status = Call(inv.client, &v1::PlanningService::Stub::SaveScenario, request, &saved);
    if (!status.ok()) return FailRpc(status, inv.client);
    if (inv.format == Format::kJson) {
      std::cout << WhatIfJson(saved);
    } else {
      std::cout << "saved as scenario " << saved.id() << " (" << saved.name() << ")\n" << WhatIfTable(saved.result());
    }
    return 0;
  }
  v1::RunScenarioRequest request;
  request.set_scenario_yaml(*yaml);
  v1::ScenarioComparison comparison;
  grpc::Status status = Call(inv.client, &v1::PlanningService::Stub::RunScenario, request, &comparison);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << (inv.format == Format::kJson ? WhatIfJson(comparison) : WhatIfTable(comparison));
  return 0;
}

}  // namespace

absl::StatusOr<std::string> ReadScenarioFile(const std::string& path) {
  return ReadWholeFile("scenario", path, kMaxScenarioBytes);
}

std::vector<Command> WhatIfCommands() {
  return {{{"whatif"},
           "SCENARIO.yaml [--save NAME] [--format table|json]  a what-if scenario beside the baseline",
           RunWhatIf}};
}

}  // namespace fleetcap::ctl
