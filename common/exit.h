#pragma once
// How every fleetcap executable and command ends: 0 when it did its job, 2
// when its command line was wrong (nothing was attempted), 1 when it failed
// while running. The reason goes to stderr as one line naming who failed.

#include <iostream>
#include <ostream>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fleetcap {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;

// Marks `status` as the command line's fault although it arose while running
// (a file a flag names cannot be used), so that it exits kExitUsage.
absl::Status CommandLineError(absl::Status status);

// kExitOk for OK, silently. Otherwise writes "<who>: <message>" to `err` and
// answers kExitUsage for a CommandLineError, else `code`.
int ExitCode(absl::string_view who, const absl::Status& status, int code = kExitFailed, std::ostream& err = std::cerr);

// A command's entry point: exits kExitUsage when its flags were refused,
// prints --help when it was asked for, else runs it. `Options` holds the
// common flags in `daemon` (common/daemon_flags.h).
template <typename Options, typename Run>
int RunCommand(absl::string_view who, const absl::StatusOr<Options>& options, Run run) {
  if (!options.ok()) return ExitCode(who, options.status(), kExitUsage);
  if (!options->daemon.help.empty()) {
    std::cout << options->daemon.help;
    return kExitOk;
  }
  return ExitCode(who, run(*options));
}

}  // namespace fleetcap
