// fleetcapctl: the command-line client of fleetcap-api. Commands are named by
// words ("fleet summary") found anywhere among the arguments; the rest are
// the command's flags.

#include <iostream>

#include "absl/strings/str_join.h"
#include "common/flags.h"
#include "fleetcap_version.h"
#include "services/ctl/assets_commands.h"
#include "services/ctl/chargeback_commands.h"
#include "services/ctl/client.h"
#include "services/ctl/control_commands.h"
#include "services/ctl/explain_commands.h"
#include "services/ctl/fleet_commands.h"
#include "services/ctl/forecast_commands.h"
#include "services/ctl/insights_budgets_commands.h"
#include "services/ctl/insights_changes_commands.h"
#include "services/ctl/insights_rightsizing_commands.h"
#include "services/ctl/insights_waste_commands.h"
#include "services/ctl/recommendations_commands.h"
#include "services/ctl/usage_commands.h"
#include "services/ctl/whatif_commands.h"

namespace {

std::vector<fleetcap::ctl::Command> AllCommands() {
  std::vector<fleetcap::ctl::Command> commands;
  // Before `chargeback`: the first command whose words all appear wins.
  for (auto& c : fleetcap::ctl::ExplainCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::FleetCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::AssetsCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::PolicyCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::TokenCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::AuditCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::UsageCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::ChargebackCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::RecommendationsCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::WhatIfCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::ForecastCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::InsightsBudgetsCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::InsightsRightsizingCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::InsightsWasteCommands()) commands.push_back(std::move(c));
  for (auto& c : fleetcap::ctl::InsightsChangesCommands()) commands.push_back(std::move(c));
  return commands;
}

void PrintUsage(std::ostream& out, const std::vector<fleetcap::ctl::Command>& commands) {
  out << "usage: fleetcapctl <command> [flags]   (fleetcapctl <command> --help for its flags)\n\ncommands:\n";
  for (const auto& c : commands) out << "  " << absl::StrJoin(c.words, " ") << " " << c.help << "\n";
}

// Finds a command's words in `args` (outside flag values is close enough: no
// flag value is a command word) and removes them.
const fleetcap::ctl::Command* Match(const std::vector<fleetcap::ctl::Command>& commands,
                                    std::vector<std::string>& args) {
  for (const auto& c : commands) {
    for (size_t i = 0; i + c.words.size() <= args.size(); ++i) {
      if (std::equal(c.words.begin(), c.words.end(), args.begin() + static_cast<long>(i))) {
        args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i + c.words.size()));
        return &c;
      }
    }
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fleetcap;
  std::vector<std::string> args = Args(argc, argv);
  const auto commands = AllCommands();
  const ctl::Command* command = Match(commands, args);
  if (command != nullptr) return command->run(args);
  if (args.size() == 1 && args[0] == "--version") {
    std::cout << "fleetcapctl " << FLEETCAP_VERSION << "\n";
    return 0;
  }
  if (args.size() == 1 && args[0] == "--help") {
    PrintUsage(std::cout, commands);
    return 0;
  }
  std::vector<std::string> words;
  for (const auto& a : args) {
    if (a.rfind("--", 0) == 0) break;
    words.push_back(a);
  }
  return ctl::Fail(2, words.empty() ? "no command given (see fleetcapctl --help)"
                                    : "unknown command \"" + absl::StrJoin(words, " ") + "\" (see fleetcapctl --help)");
}
