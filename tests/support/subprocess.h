#pragma once
// Runs fleetcap's real executables from tests. Output goes to files in a
// private temp folder (so a chatty child can never block on a full pipe) and
// is read back as text.

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "tests/support/test_dir.h"

namespace fleetcap::testing {

struct RunResult {
  int exit_code = -1;  // 128 + signal if killed by one
  std::string out;
  std::string err;
};

class Subprocess {
 public:
  // Starts argv[0] (a path) with the given extra environment ("K=V").
  static absl::StatusOr<std::unique_ptr<Subprocess>> Start(const std::vector<std::string>& argv,
                                                           const std::vector<std::string>& env = {});
  ~Subprocess();  // SIGKILLs a child still running

  // The first stdout line starting with `prefix`, waiting up to `timeout`.
  absl::StatusOr<std::string> WaitForLine(const std::string& prefix, absl::Duration timeout);

  // Sends `signal` (if still running) and waits for exit.
  RunResult Stop(int signal);
  // Waits for the child to exit by itself, up to `timeout` (then SIGKILL).
  RunResult Wait(absl::Duration timeout);

  std::string Stdout() const;
  std::string Stderr() const;
  pid_t pid() const { return pid_; }

 private:
  Subprocess() = default;
  RunResult Collect(int status);

  pid_t pid_ = -1;
  TestDir dir_{"child"};  // its stdout and stderr
};

// Runs argv to completion (SIGKILL after `timeout`).
RunResult Run(const std::vector<std::string>& argv, absl::Duration timeout = absl::Seconds(120),
              const std::vector<std::string>& env = {});

}  // namespace fleetcap::testing
