#include "tests/support/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"

namespace fleetcap::testing {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Subprocess>> Subprocess::Start(const std::vector<std::string>& argv,
                                                              const std::vector<std::string>& env) {
  std::unique_ptr<Subprocess> child(new Subprocess());
  if (child->dir_.path().empty()) return absl::InternalError("no directory for the child's output");
  const std::string out = child->dir_.path() + "/stdout";
  const std::string err = child->dir_.path() + "/stderr";

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) return absl::InternalError("fork failed");
  if (pid == 0) {
    int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int null_fd = open("/dev/null", O_RDONLY);
    dup2(null_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    for (const auto& kv : env) putenv(const_cast<char*>(kv.c_str()));
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  child->pid_ = pid;
  return child;
}

Subprocess::~Subprocess() {
  if (pid_ > 0) Stop(SIGKILL);
}

std::string Subprocess::Stdout() const { return ReadFile(dir_.path() + "/stdout"); }
std::string Subprocess::Stderr() const { return ReadFile(dir_.path() + "/stderr"); }

absl::StatusOr<std::string> Subprocess::WaitForLine(const std::string& prefix, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    for (absl::string_view line : absl::StrSplit(Stdout(), '\n')) {
      if (absl::StartsWith(line, prefix)) return std::string(line);
    }
    int status = 0;
    if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return absl::FailedPreconditionError(absl::StrCat("exited before printing \"", prefix, "\"; stderr: ", Stderr()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return absl::DeadlineExceededError(absl::StrCat("no line \"", prefix, "\" in time; stderr: ", Stderr()));
}

RunResult Subprocess::Collect(int status) {
  pid_ = -1;
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = Stdout();
  result.err = Stderr();
  return result;
}

RunResult Subprocess::Stop(int signal) {
  if (pid_ <= 0) return RunResult{-1, Stdout(), Stderr()};
  kill(pid_, signal);
  int status = 0;
  waitpid(pid_, &status, 0);
  return Collect(status);
}

RunResult Subprocess::Wait(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (pid_ > 0 && absl::Now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) return Collect(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return Stop(SIGKILL);
}

RunResult Run(const std::vector<std::string>& argv, absl::Duration timeout, const std::vector<std::string>& env) {
  auto child = Subprocess::Start(argv, env);
  if (!child.ok()) return RunResult{-1, "", std::string(child.status().message())};
  return (*child)->Wait(timeout);
}

}  // namespace fleetcap::testing
