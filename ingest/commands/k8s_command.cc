#include "ingest/commands/k8s_command.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "common/logging.h"
#include "common/metrics_server.h"
#include "common/pg_pool.h"
#include "common/signals.h"
#include "ingest/k8s/k8s_ingest.h"
#include "store/migrator.h"
#include "store/pg_live_inventory_repository.h"

namespace fleetcap::ingest {
namespace {

constexpr const char* kUsage = R"(k8s --cluster NAME [--kube-api URL | --kubeconfig PATH] [flags]

Lists then watches the cluster's namespaces, controllers, nodes and pods and
keeps the store's inventory of cluster NAME exact: nodes and accelerators in
service, which pod holds how many milli-devices of which device from when to
when, and pods waiting for accelerators. Without --kube-api or --kubeconfig it
uses the pod's service account (KUBERNETES_SERVICE_HOST/_PORT). Prints
"fleetcap-ingest k8s: synced" once everything is listed and stored; with
--exit-after-sync it then exits. Stops cleanly on SIGTERM.)";

int Fail(int code, const absl::Status& status) {
  std::cerr << "fleetcap-ingest k8s: " << status.message() << "\n";
  return code;
}

std::vector<std::string> List(const std::string& text) {
  return absl::StrSplit(text, ',', absl::SkipWhitespace());
}

}  // namespace

int RunK8sCommand(const std::vector<std::string>& args) {
  BlockTerminationSignals();
  // A server that closes a TLS connection must not end the process (OpenSSL writes with write(2)).
  std::signal(SIGPIPE, SIG_IGN);
  DaemonFlags daemon;
  k8s::ConnectionFlags connection;
  k8s::K8sIngestOptions options;
  k8s::AcceleratorConfig& acc = options.reconciler.accelerators;
  k8s::TeamConfig& teams = options.reconciler.teams;
  std::string cluster;
  std::string pod_team_labels = "fleetcap.io/team", ns_team_labels = "fleetcap.io/team",
              ns_team_annotations = "fleetcap.io/team";
  int64_t page_size = 500, watch_timeout_s = 300, token_reread_s = 60, flush_ms = 250;
  bool exit_after_sync = false;
  FlagSet flags("fleetcap-ingest", kUsage);
  daemon.Register(flags);
  flags.String("cluster", &cluster, "the cluster's name in the store");
  flags.String("kube-api", &connection.kube_api, "the API server URL (http:// or https://)");
  flags.String("token-file", &connection.token_file, "a file holding the bearer token (read again as it rotates)");
  flags.String("ca-file", &connection.ca_file, "the CA bundle that signed the API server's certificate");
  flags.Bool("insecure", &connection.insecure, "do not verify the API server's certificate");
  flags.String("kubeconfig", &connection.kubeconfig, "a kubeconfig file (its current context)");
  flags.Int("page-size", &page_size, "objects per list page (limit)");
  flags.Int("watch-timeout", &watch_timeout_s, "shortest watch timeoutSeconds (each is drawn from [t, 2t))");
  flags.Int("token-reread", &token_reread_s, "seconds between reads of --token-file");
  flags.Int("flush-interval-ms", &flush_ms, "milliseconds between store writes while watching");
  flags.Bool("exit-after-sync", &exit_after_sync, "exit once everything is listed and stored");
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

  auto proceed = daemon.ParseCommand(flags, args);
  if (!proceed.ok()) return Fail(2, proceed.status());
  if (!*proceed) return 0;
  if (cluster.empty()) return Fail(2, absl::InvalidArgumentError("--cluster: empty; name the cluster"));
  if (page_size < 1) return Fail(2, absl::InvalidArgumentError("--page-size: must be at least 1"));
  if (auto status = daemon.RequireDb(); !status.ok()) return Fail(2, status);
  auto conn = k8s::ResolveConnection(connection, [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v == nullptr ? "" : v);
  });
  if (!conn.ok()) return Fail(2, conn.status());
  options.connection = *conn;
  options.reconciler.cluster = cluster;
  teams.pod_label_keys = List(pod_team_labels);
  teams.namespace_label_keys = List(ns_team_labels);
  teams.namespace_annotation_keys = List(ns_team_annotations);
  options.list_watch.page_size = page_size;
  options.list_watch.min_watch_timeout = absl::Seconds(std::max<int64_t>(1, watch_timeout_s));
  options.token_reread = absl::Seconds(std::max<int64_t>(1, token_reread_s));
  options.flush_interval = absl::Milliseconds(std::max<int64_t>(10, flush_ms));
  options.exit_after_sync = exit_after_sync;

  auto registry = std::make_shared<prometheus::Registry>();
  k8s::K8sMetrics metrics(*registry);
  std::unique_ptr<MetricsServer> metrics_server;
  if (!daemon.metrics_listen.empty()) {
    auto started = MetricsServer::Start(daemon.metrics_listen, registry);
    if (!started.ok()) return Fail(1, started.status());
    metrics_server = std::move(*started);
    std::cout << "fleetcap-ingest k8s: metrics on port " << metrics_server->port() << std::endl;
  }
  {
    auto pg = PgConnect(daemon.db);
    if (!pg.ok()) return Fail(1, pg.status());
    if (auto status = store::Migrator().EnsureCurrent(**pg, daemon.migrate); !status.ok()) return Fail(1, status);
  }
  auto pool = PgPool::Open(daemon.db, 2);
  if (!pool.ok()) return Fail(1, pool.status());
  store::PgLiveInventoryRepository repo(pool->get());
  RealClock clock;

  static std::atomic<bool> stop{false};
  std::thread([] {
    WaitForTerminationSignal();
    stop = true;
  }).detach();
  Logger("ingest")->info("cluster {}: following {}", cluster, options.connection.server);
  k8s::K8sIngest ingest(options, &repo, &metrics, &clock);
  const absl::Duration began = clock.Monotonic();
  auto status = ingest.Run(&stop, [&] {
    std::cout << "fleetcap-ingest k8s: synced cluster " << cluster << " in "
              << absl::FormatDuration(absl::Trunc(clock.Monotonic() - began, absl::Milliseconds(1))) << std::endl;
  });
  if (!status.ok()) return Fail(1, status);
  Logger("ingest")->info("cluster {}: stopped", cluster);
  return 0;
}

}  // namespace fleetcap::ingest
