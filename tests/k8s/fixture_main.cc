// fleetcap-k8s-fixture: the test fixture's Kubernetes API server on its own,
// for the demo, the benchmark and trying kubectl by hand.
//
//   fleetcap-k8s-fixture --zoo                         every accelerator kind, by hand
//   fleetcap-k8s-fixture --openb DIR [--speed X]       the openb trace as a live cluster
//   fleetcap-k8s-fixture --synthetic-nodes N --synthetic-pods P --seed S
//
// Prints "fixture listening on http://127.0.0.1:PORT" and serves until SIGTERM.

#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/flags.h"
#include "common/signals.h"
#include "common/time_util.h"
#include "tests/k8s/fixture/accelerator_zoo.h"
#include "tests/k8s/fixture/fake_api_server.h"
#include "tests/k8s/fixture/trace_cluster.h"

int main(int argc, char** argv) {
  fleetcap::BlockTerminationSignals();
  int64_t port = 0, synthetic_nodes = 0, synthetic_pods = 0, seed = 1;
  std::string token, openb_dir, start_text = "2026-01-01T00:00:00Z", speed_text = "100000", port_file;
  bool zoo = false, wait_for_watch = false;
  fleetcap::FlagSet flags("fleetcap-k8s-fixture",
                          "fleetcap-k8s-fixture [--zoo | --openb DIR | --synthetic-nodes N] [flags]");
  flags.Int("port", &port, "port on 127.0.0.1 (0: a free one)");
  flags.String("port-file", &port_file, "write the port chosen to this file");
  flags.String("token", &token, "bearer token clients must present (empty: none)");
  flags.Bool("zoo", &zoo, "serve one node of every accelerator kind");
  flags.String("openb", &openb_dir, "serve the openb trace in this folder as a live cluster");
  flags.String("start", &start_text, "the instant of trace second 0");
  flags.String("speed", &speed_text, "trace seconds per second of the live replay");
  flags.Bool("wait-for-watch", &wait_for_watch, "start the live replay once a client watches every kind");
  flags.Int("synthetic-nodes", &synthetic_nodes, "serve a synthetic cluster of this many nodes");
  flags.Int("synthetic-pods", &synthetic_pods, "... and this many pods");
  flags.Int("seed", &seed, "the synthetic cluster's seed");
  auto parsed = flags.Parse(fleetcap::Args(argc, argv));
  if (!parsed.ok()) {
    std::cerr << "fleetcap-k8s-fixture: " << parsed.status().message() << "\n";
    return 2;
  }
  if (parsed->help) {
    std::cout << flags.Help();
    return 0;
  }
  auto start = fleetcap::ParseRfc3339("--start", start_text);
  double speed = 0;
  if (!start.ok() || !absl::SimpleAtod(speed_text, &speed) || speed <= 0) {
    std::cerr << "fleetcap-k8s-fixture: bad --start or --speed\n";
    return 2;
  }
  fleetcap::testing::FakeApiOptions options;
  options.port = static_cast<int>(port);
  options.token = token;
  options.bookmark_interval = absl::Seconds(30);
  auto api = fleetcap::testing::FakeApiServer::Start(options);
  if (!api.ok()) {
    std::cerr << "fleetcap-k8s-fixture: " << api.status().message() << "\n";
    return 1;
  }
  std::unique_ptr<fleetcap::testing::TraceReplay> replay;
  if (zoo) {
    for (auto& [plural, object] : fleetcap::testing::ZooObjects(*start)) (*api)->Apply(plural, object);
  } else if (!openb_dir.empty() || synthetic_nodes > 0) {
    absl::StatusOr<fleetcap::openb::OpenbTrace> trace =
        synthetic_nodes > 0
            ? absl::StatusOr<fleetcap::openb::OpenbTrace>(fleetcap::testing::SyntheticTrace(
                  {static_cast<int>(synthetic_nodes), static_cast<int>(synthetic_pods), static_cast<uint64_t>(seed)}))
            : fleetcap::openb::ReadOpenbTrace(openb_dir);
    if (!trace.ok()) {
      std::cerr << "fleetcap-k8s-fixture: " << trace.status().message() << "\n";
      return 1;
    }
    const absl::Time began = absl::Now();
    auto timeline = fleetcap::testing::BuildTimeline(*trace, *start);
    if (synthetic_nodes > 0) {
      // A synthetic cluster is served as it stands now: its timeline up to the present, so that a pod
      // whose wait ends later is pending, as a real cluster shows it (served at the end of its timeline,
      // a cluster that began less than its longest wait ago held devices from instants still to come).
      fleetcap::testing::ApplyTimeline(**api, timeline, absl::Now());
      // The accelerators its nodes offer: what a store that synced it must hold (the scale benchmark checks).
      int64_t accelerators = 0;
      for (const auto& node : timeline.trace.nodes) accelerators += node.gpus;
      std::cerr << "fixture: synthetic cluster of " << (*api)->count("nodes") << " nodes (" << accelerators
                << " accelerators) and " << (*api)->count("pods") << " pods built in "
                << absl::FormatDuration(absl::Now() - began) << "\n";
    } else {
      const size_t steps = timeline.steps.size();
      replay = std::make_unique<fleetcap::testing::TraceReplay>(
          api->get(), std::move(timeline), speed, wait_for_watch, [steps, began] {
            std::cout << "fixture: replay finished (" << steps << " changes in "
                      << absl::FormatDuration(absl::Trunc(absl::Now() - began, absl::Seconds(1))) << ")" << std::endl;
          });
    }
  }
  if (!port_file.empty()) {
    FILE* f = std::fopen(port_file.c_str(), "w");
    if (f != nullptr) {
      std::fprintf(f, "%d\n", (*api)->port());
      std::fclose(f);
    }
  }
  std::cout << "fixture listening on " << (*api)->url() << std::endl;
  fleetcap::WaitForTerminationSignal();
  replay.reset();
  return 0;
}
