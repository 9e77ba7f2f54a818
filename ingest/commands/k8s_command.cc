#include "ingest/commands/k8s_command.h"

#include <csignal>
#include <cstdlib>
#include <iostream>

#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/daemon.h"
#include "common/exit.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "store/migrator.h"
#include "store/pg_live_inventory_repository.h"

namespace fleetcap::ingest {
namespace {

constexpr const char* kK8sUsage = R"(k8s --cluster NAME [--kube-api URL | --kubeconfig PATH] [flags]

Lists then watches the cluster's namespaces, controllers, nodes and pods and
keeps the store's inventory of cluster NAME exact: nodes and accelerators in
service, which pod holds how many milli-devices of which device from when to
when, and pods waiting for accelerators. Without --kube-api or --kubeconfig it
uses the pod's service account (KUBERNETES_SERVICE_HOST/_PORT). Prints
"fleetcap-ingest k8s: synced" once everything is listed and stored; with
--exit-after-sync it then exits. Stops cleanly on SIGTERM.)";

std::vector<std::string> List(const std::string& text) { return absl::StrSplit(text, ',', absl::SkipWhitespace()); }

}  // namespace

absl::StatusOr<K8sOptions> ParseK8sFlags(const std::vector<std::string>& args, const Environment& env) {
  K8sOptions options;
  options.daemon.db_connections = 2;
  k8s::ReconcilerOptions& reconciler = options.ingest.reconciler;
  k8s::AcceleratorConfig& acc = reconciler.accelerators;
  std::string pod_team_labels = "fleetcap.io/team", ns_team_labels = "fleetcap.io/team",
              ns_team_annotations = "fleetcap.io/team";
  int64_t page_size = 500, watch_timeout_s = 300, flush_ms = 250;
  absl::Duration token_reread = absl::Seconds(60);
  FlagSet flags("fleetcap-ingest", kK8sUsage, env);
  RegisterDaemonFlags(flags, &options.daemon);
  flags.String("cluster", &reconciler.cluster, "the cluster's name in the store");
  flags.String("kube-api", &options.connection.kube_api, "the API server URL (http:// or https://)");
  flags.String("token-file", &options.connection.token_file,
               "a file holding the bearer token (read again as it rotates)");
  flags.String("ca-file", &options.connection.ca_file, "the CA bundle that signed the API server's certificate");
  flags.Bool("insecure", &options.connection.insecure, "do not verify the API server's certificate");
  flags.String("kubeconfig", &options.connection.kubeconfig, "a kubeconfig file (its current context)");
  flags.Int("page-size", &page_size, "objects per list page (limit)");
  flags.Int("watch-timeout", &watch_timeout_s, "shortest watch timeoutSeconds (each is drawn from [t, 2t))");
  flags.Duration("token-reread", &token_reread, "seconds (or a duration: 90s, 5m) between reads of --token-file");
  flags.Int("flush-interval-ms", &flush_ms, "milliseconds between store writes while watching");
  flags.Bool("exit-after-sync", &options.ingest.exit_after_sync, "exit once everything is listed and stored");
  flags.String("model-fallback", &acc.fallback_model, "the model of accelerators whose node names none");
  flags.String("share-annotation", &acc.share_milli_annotation, "pod annotation: milli-GPUs of each GPU (GPU sharing)");
  flags.String("share-count-annotation", &acc.share_count_annotation, "pod annotation: GPUs shared");
  flags.String("device-index-annotation", &acc.device_index_annotation, "pod annotation: GPU indices assigned");
  flags.String("team-label", &pod_team_labels,
               "pod label(s) kept as the team evidence, comma-separated (they count only where the policy trusts "
               "them)");
  flags.String("namespace-team-label", &ns_team_labels,
               "namespace label(s) kept as the team evidence, comma-separated");
  flags.String("namespace-team-annotation", &ns_team_annotations,
               "namespace annotation(s) kept as the team evidence, comma-separated");

  FLEETCAP_RETURN_IF_ERROR(ParseDaemonCommand(flags, args, &options.daemon));
  if (!options.daemon.help.empty()) return options;
  if (reconciler.cluster.empty()) return absl::InvalidArgumentError("--cluster: empty; name the cluster");
  if (page_size < 1) return absl::InvalidArgumentError("--page-size: must be at least 1");
  FLEETCAP_RETURN_IF_ERROR(RequireDb(options.daemon));
  reconciler.teams.pod_label_keys = List(pod_team_labels);
  reconciler.teams.namespace_label_keys = List(ns_team_labels);
  reconciler.teams.namespace_annotation_keys = List(ns_team_annotations);
  options.ingest.list_watch.page_size = page_size;
  options.ingest.list_watch.min_watch_timeout = absl::Seconds(std::max<int64_t>(1, watch_timeout_s));
  options.ingest.token_reread = std::max(absl::Seconds(1), token_reread);
  options.ingest.flush_interval = absl::Milliseconds(std::max<int64_t>(10, flush_ms));
  return options;
}

absl::Status RunK8s(const K8sOptions& options) {
  // A server that closes a TLS connection must not end the process (OpenSSL writes with write(2)).
  std::signal(SIGPIPE, SIG_IGN);
  k8s::K8sIngestOptions ingest_options = options.ingest;
  auto connection = k8s::ResolveConnection(options.connection, [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v == nullptr ? "" : v);
  });
  if (!connection.ok()) return CommandLineError(connection.status());
  ingest_options.connection = *connection;
  const std::string& cluster = ingest_options.reconciler.cluster;

  FLEETCAP_ASSIGN_OR_RETURN(auto daemon, Daemon::Start(options.daemon, store::CheckSchema));
  k8s::K8sMetrics metrics(*daemon->registry());
  if (daemon->metrics_port() != 0) {
    std::cout << "fleetcap-ingest k8s: metrics on port " << daemon->metrics_port() << std::endl;
  }
  store::PgLiveInventoryRepository repo(daemon->pool());
  RealClock clock;
  Logger("ingest")->info("cluster {}: following {}", cluster, ingest_options.connection.server);
  k8s::K8sIngest ingest(ingest_options, &repo, &metrics, &clock);
  const absl::Duration began = clock.Monotonic();
  FLEETCAP_RETURN_IF_ERROR(ingest.Run(daemon->stop_requested(), [&] {
    std::cout << "fleetcap-ingest k8s: synced cluster " << cluster << " in "
              << absl::FormatDuration(absl::Trunc(clock.Monotonic() - began, absl::Milliseconds(1))) << std::endl;
  }));
  Logger("ingest")->info("cluster {}: stopped", cluster);
  return absl::OkStatus();
}

int RunK8sCommand(const std::vector<std::string>& args) {
  return RunCommand("fleetcap-ingest k8s", ParseK8sFlags(args, ProcessEnvironment()), RunK8s);
}

}  // namespace fleetcap::ingest
