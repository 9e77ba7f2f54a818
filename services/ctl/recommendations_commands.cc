#include "services/ctl/recommendations_commands.h"

#include <functional>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/file_read.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "policy/policy_parser.h"
#include "services/ctl/client.h"
#include "services/ctl/recommendations_format.h"
#include "services/exports/recommendations_export.h"
#include "services/exports/scheduler_export.h"

namespace fleetcap::ctl {

using exports::ParseFlavorResources;
using exports::PolicyForExport;
using exports::SchedulerExportOptions;
using exports::SchedulerFormat;
using exports::SchedulerManifests;

namespace {

// The policy document the set was computed under: --policy FILE when given
// (a scheduler token may not read policies), else PolicyService.GetPolicy.
int PolicyDocumentOf(const Invocation& inv, const std::string& policy_file, int32_t version, std::string& document) {
  if (!policy_file.empty()) {
    auto text = ReadWholeFile("--policy", policy_file, policy::kMaxPolicyBytes);
    if (!text.ok()) return Fail(2, std::string(text.status().message()));
    document = std::move(*text);
    return 0;
  }
  v1::GetPolicyRequest request;
  request.set_version(version);
  v1::PolicyVersion policy;
  grpc::Status status = Call(inv.client, &v1::PolicyService::Stub::GetPolicy, request, &policy);
  if (!status.ok()) return FailRpc(status, inv.client);
  document = policy.document();
  return 0;
}

int PrintManifests(const Invocation& inv, const v1::RecommendationSet& set, SchedulerFormat format,
                   const std::string& policy_file, const SchedulerExportOptions& options) {
  std::string document;
  if (int failed = PolicyDocumentOf(inv, policy_file, set.policy_version(), document); failed != 0) return failed;
  auto policy = PolicyForExport(document, set.policy_version());
  if (!policy.ok()) return Fail(1, std::string(policy.status().message()));
  // Each ResourceFlavor selects the nodes the API saw its model's nodes labelled with.
  SchedulerExportOptions with_labels = options;
  with_labels.node_labels = exports::FlavorNodeLabelsOf(set);
  auto manifests = SchedulerManifests(set, *policy, format, with_labels);
  if (!manifests.ok()) return Fail(1, std::string(manifests.status().message()));
  std::cout << *manifests;
  return 0;
}

// Each set as it comes: the current one, then every run that changes what the
// token may read, until the server ends the stream or the process is stopped.
int WatchRecommendations(const Invocation& inv, const std::string& team,
                         const std::function<int(const v1::RecommendationSet&)>& print) {
  v1::AllocationService::Stub stub(inv.client.Channel());
  grpc::ClientContext context;  // no deadline: a watch lasts as long as the caller wants
  if (!inv.client.token.empty()) context.AddMetadata("authorization", "Bearer " + inv.client.token);
  v1::WatchRecommendationsRequest request;
  request.set_team(team);
  std::unique_ptr<grpc::ClientReader<v1::RecommendationSet>> reader = stub.WatchRecommendations(&context, request);
  v1::RecommendationSet set;
  while (reader->Read(&set)) {
    if (int failed = print(set); failed != 0) {
      context.TryCancel();
      reader->Finish();
      return failed;
    }
    std::cout.flush();
  }
  grpc::Status status = reader->Finish();
  if (!status.ok()) return FailRpc(status, inv.client);
  return 0;
}

int RunRecommendations(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json, kueue or volcano";
  std::string team;
  std::string policy_file;
  std::string flavor_resources;
  bool watch = false;
  SchedulerExportOptions export_options;
  FlagSet flags("fleetcapctl recommendations",
                "[--team T] [--format table|json|kueue|volcano] [flags]\n\n"
                "The newest allocation run's recommendation per team and accelerator flavor: the demand it\n"
                "used, the guarantee, the quota to enforce, the borrowing and lending limits, and what bound\n"
                "it. --team covers the teams under it too; a team token sees only its own subtree.\n"
                "--format json is the API's proto3 JSON. docs/allocation.md describes each field.\n"
                "--format kueue writes ResourceFlavors, Cohorts and ClusterQueues (kueue.x-k8s.io/v1beta2),\n"
                "--format volcano Queues (scheduling.volcano.sh/v1beta1), for `kubectl apply -f -`; both\n"
                "read the policy version the run used (--policy FILE for a token that may not read it).\n"
                "--watch prints the current set, then each run that changes it, until stopped.");
  flags.String("team", &team, "one team and those under it");
  flags.Bool("watch", &watch, "follow the stream of runs (AllocationService.WatchRecommendations)");
  flags.String("policy", &policy_file, "kueue, volcano: the run's policy document, instead of asking the API");
  flags.String("pool-label", &export_options.pool_label,
               "kueue: the node label that selects a flavor's pool (e.g. cloud.google.com/gke-nodepool)");
  flags.String("flavor-resource", &flavor_resources,
               "kueue, volcano: FLAVOR=RESOURCE,... in place of the resource a flavor's model implies");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  std::optional<SchedulerFormat> scheduler;
  if (inv.client.format == "kueue") scheduler = SchedulerFormat::kKueue;
  if (inv.client.format == "volcano") scheduler = SchedulerFormat::kVolcano;
  absl::StatusOr<RecommendationsFormat> format = RecommendationsFormat::kTable;
  if (!scheduler) format = ParseRecommendationsFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto resources = ParseFlavorResources(flavor_resources);
  if (!resources.ok()) return Fail(2, std::string(resources.status().message()));
  export_options.flavor_resources = *std::move(resources);

  const auto print = [&](const v1::RecommendationSet& set) {
    if (scheduler) return PrintManifests(inv, set, *scheduler, policy_file, export_options);
    std::cout << RenderRecommendations(set, *format);
    return 0;
  };
  if (watch) return WatchRecommendations(inv, team, print);
  v1::RecommendationSet set;
  grpc::Status status =
      Call(inv.client, &v1::AllocationService::Stub::GetRecommendations, RecommendationsRequest(team), &set);
  if (!status.ok()) return FailRpc(status, inv.client);
  return print(set);
}

}  // namespace

std::vector<Command> RecommendationsCommands() {
  return {{{"recommendations"},
           "[--team T] [--format table|json|kueue|volcano] [--watch]  quotas per team and flavor for schedulers",
           RunRecommendations}};
}

v1::GetRecommendationsRequest RecommendationsRequest(const std::string& team) {
  v1::GetRecommendationsRequest request;
  request.set_team(team);
  return request;
}

}  // namespace fleetcap::ctl
