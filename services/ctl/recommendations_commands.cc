#include "services/ctl/recommendations_commands.h"

#include <iostream>

#include "services/ctl/client.h"
#include "services/ctl/recommendations_format.h"

namespace fleetcap::ctl {
namespace {

int RunRecommendations(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table or json";
  std::string team;
  FlagSet flags("fleetcapctl recommendations",
                "[--team T] [--format table|json] [flags]\n\n"
                "The newest allocation run's recommendation per team and accelerator flavor: the demand it\n"
                "used, the guarantee, the quota to enforce, the borrowing and lending limits, and what bound\n"
                "it. --team covers the teams under it too; a team token sees only its own subtree.\n"
                "--format json is the API's proto3 JSON. docs/allocation.md describes each field.");
  flags.String("team", &team, "one team and those under it");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = ParseRecommendationsFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));

  v1::RecommendationSet set;
  grpc::Status status =
      Call(inv.client, &v1::AllocationService::Stub::GetRecommendations, RecommendationsRequest(team), &set);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderRecommendations(set, *format);
  return 0;
}

}  // namespace

std::vector<Command> RecommendationsCommands() {
  return {{{"recommendations"},
           "[--team T] [--format table|json]  quotas per team and flavor for schedulers",
           RunRecommendations}};
}

v1::GetRecommendationsRequest RecommendationsRequest(const std::string& team) {
  v1::GetRecommendationsRequest request;
  request.set_team(team);
  return request;
}

}  // namespace fleetcap::ctl
