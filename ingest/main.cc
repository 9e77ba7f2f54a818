// fleetcap-ingest: writes inventory and usage facts into the store. Each
// command lives in ingest/commands/: a pure parse of its flags, then its run.

#include <functional>
#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/exit.h"
#include "common/flags.h"
#include "fleetcap_version.h"
#include "ingest/commands/k8s_command.h"
#include "ingest/commands/prometheus_command.h"
#include "ingest/commands/replay_command.h"

namespace {

using Command = std::function<int(const std::vector<std::string>&)>;

const std::map<std::string, std::pair<Command, const char*>>& Commands() {
  static const auto* commands = new std::map<std::string, std::pair<Command, const char*>>{
      {"prometheus",
       {fleetcap::ingest::RunPrometheusCommand,
        "store accelerator utilisation per minute from Prometheus (pull and push)"}},
      {"k8s",
       {fleetcap::ingest::RunK8sCommand, "keep a Kubernetes cluster's inventory exact from its API (list and watch)"}},
      {"replay", {fleetcap::ingest::RunReplayCommand, "store a published cluster trace as a cluster's inventory"}},
  };
  return *commands;
}

void PrintUsage(std::ostream& out) {
  out << "usage: fleetcap-ingest <command> [flags]   (fleetcap-ingest <command> --help for its flags)\n\ncommands:\n";
  for (const auto& [name, command] : Commands()) out << "  " << name << "  " << command.second << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args = fleetcap::Args(argc, argv);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    PrintUsage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? fleetcap::kExitUsage : fleetcap::kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "fleetcap-ingest " << FLEETCAP_VERSION << "\n";
    return fleetcap::kExitOk;
  }
  auto command = Commands().find(args[0]);
  if (command == Commands().end()) {
    return fleetcap::ExitCode(
        "fleetcap-ingest",
        absl::InvalidArgumentError(absl::StrCat("unknown command \"", args[0], "\" (see fleetcap-ingest --help)")),
        fleetcap::kExitUsage);
  }
  return command->second.first(std::vector<std::string>(args.begin() + 1, args.end()));
}
