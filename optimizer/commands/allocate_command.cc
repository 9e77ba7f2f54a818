#include "optimizer/commands/allocate_command.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/exit.h"
#include "common/file_read.h"
#include "common/flags.h"
#include "common/status_macros.h"
#include "optimizer/allocation/demand_document.h"
#include "optimizer/allocation/offline_solver.h"
#include "policy/policy_parser.h"
#include "services/exports/recommendation_set.h"

namespace fleetcap::optimizer {
namespace {

constexpr const char* kAllocateUsage = R"(--policy FILE --demand FILE [--format table|json] [--heterogeneity]

Recommends per team and flavor a quota from the policy's org tree,
guarantees, limits and weights and the demand in FILE (demand.yaml:
`demand: [{team: T, flavor: F, devices: 12.5}]`, and optionally
`capacity: [{flavor: F, devices: 64}]` in place of the policy's). Needs no
database. --format json prints the API's RecommendationSet (proto3 JSON,
runId "0"). docs/allocation.md gives the rules.)";

// The whole file, refusing one larger than `limit` bytes (the parsers'
// own limit, so the message names the file rather than the document). A file
// that cannot be read is named as this command always named it.
absl::StatusOr<std::string> ReadBounded(const std::string& flag, const std::string& path, size_t limit) {
  auto text = ReadWholeFile(absl::StrCat("--", flag), path, limit);
  if (absl::IsNotFound(text.status())) {
    return absl::NotFoundError(absl::StrCat("--", flag, ": ", path, ": cannot read"));
  }
  return text;
}

}  // namespace

absl::StatusOr<AllocateOptions> ParseAllocateFlags(const std::vector<std::string>& args) {
  AllocateOptions options;
  FlagSet flags("fleetcap-optimizer allocate", kAllocateUsage, [](const std::string&) { return std::string(); });
  flags.String("policy", &options.policy_path, "the policy document (YAML, docs/policy.md)");
  flags.String("demand", &options.demand_path, "the demand document (YAML, docs/allocation.md)");
  flags.String("format", &options.format, "table or json");
  flags.Bool("heterogeneity", &options.heterogeneity,
             "divide by the policy's throughput matrix (workload class x flavor) with a linear program");
  FLEETCAP_ASSIGN_OR_RETURN(FlagSet::Parsed parsed, flags.Parse(args));
  if (parsed.help) {
    options.help = flags.Help();
    return options;
  }
  if (!parsed.positional.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("unexpected argument \"", parsed.positional[0], "\""));
  }
  if (options.policy_path.empty()) return absl::InvalidArgumentError("--policy: missing; give the policy file");
  if (options.demand_path.empty()) return absl::InvalidArgumentError("--demand: missing; give the demand file");
  if (options.format != "table" && options.format != "json") {
    return absl::InvalidArgumentError(absl::StrCat("--format: \"", options.format, "\" is not table or json"));
  }
  return options;
}

absl::Status RunAllocate(const AllocateOptions& options, std::ostream& out, const Clock& clock) {
  allocation::SolverInput input;
  input.policy_source = options.policy_path;
  input.demand_source = options.demand_path;
  auto policy = ReadBounded("policy", options.policy_path, policy::kMaxPolicyBytes);
  if (!policy.ok()) return CommandLineError(policy.status());
  auto demand = ReadBounded("demand", options.demand_path, allocation::kMaxDemandBytes);
  if (!demand.ok()) return CommandLineError(demand.status());
  input.policy_text = std::move(*policy);
  input.demand_text = std::move(*demand);
  input.heterogeneity = options.heterogeneity;
  auto solved = allocation::SolveOffline(input);
  if (!solved.ok()) return CommandLineError(solved.status());
  if (options.format == "json") {
    // The API's RecommendationSet of a run that was never stored: id and policy version 0.
    exports::RecommendationSetHeader header;
    header.computed_at = clock.Now();
    out << exports::RecommendationSetJson(header, *solved);
  } else {
    out << allocation::RecommendationsTable(*solved);
  }
  out.flush();
  if (!out) return absl::DataLossError("writing the recommendations failed");
  return absl::OkStatus();
}

int RunAllocateCommand(const std::vector<std::string>& args) {
  constexpr const char* kWho = "fleetcap-optimizer allocate";
  auto options = ParseAllocateFlags(args);
  if (!options.ok()) return ExitCode(kWho, options.status(), kExitUsage);
  if (!options->help.empty()) {
    std::cout << options->help;
    return kExitOk;
  }
  return ExitCode(kWho, RunAllocate(*options, std::cout, *RealClock::Instance()));
}

}  // namespace fleetcap::optimizer
