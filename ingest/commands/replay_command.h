#pragma once
// `fleetcap-ingest replay`: stores a published cluster trace as one cluster's inventory.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "ingest/openb/openb_replay.h"
#include "ingest/synthetic/synthetic_trace.h"

namespace fleetcap::ingest {

struct ReplayOptions {
  DaemonOptions daemon;
  // The cluster, the start instant and, for the openb trace, where it is.
  OpenbReplayOptions replay;
  // Set for --trace synthetic: the trace is drawn, not read.
  std::optional<synthetic::SyntheticOptions> synthetic;
  // Set for --sample: the openb trace's pods sampled at a realistic load
  // over the window before now (ingest/openb/sampled_load.h).
  std::optional<openb::LoadSampleOptions> sample;
};

// The options in `args` (the arguments after the command's name), or
// INVALID_ARGUMENT naming the flag. Pure: `env` is the environment.
absl::StatusOr<ReplayOptions> ParseReplayFlags(const std::vector<std::string>& args, const Environment& env);

// Replays the trace into the store and prints what it stored.
absl::Status RunReplay(const ReplayOptions& options);

// Parses and runs; returns the exit code.
int RunReplayCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::ingest
