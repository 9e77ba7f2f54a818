#pragma once
// A small command-line parser shared by every executable: `--name value` and
// `--name=value`, boolean switches, environment fallbacks, `--help` and
// `--version`. Unknown flags and missing values are errors that name the flag.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap {

// The value of an environment variable, "" when unset. Parsers take it as an
// argument so that they stay pure and their tests need not touch the process's.
using Environment = std::function<std::string(const std::string& name)>;

// getenv.
Environment ProcessEnvironment();

class FlagSet {
 public:
  // `program` and `usage` head the --help text; `env` supplies the
  // environment fallbacks of String flags.
  FlagSet(std::string program, std::string usage, Environment env = ProcessEnvironment());

  // Registers a flag bound to `target`. Its current value is the default. If
  // `env` is given and set in the environment, it overrides the default.
  void String(const std::string& name, std::string* target, const std::string& help, const std::string& env = "");
  // A String flag whose value is never printed: --help says where it was set
  // ("[set from ENV]", or "[set]"), never what it is. A String flag whose
  // name ends in -token, -password or -secret (or is one of them) is
  // registered as a secret whatever the caller used, so that a new one
  // cannot be printed by omission.
  void Secret(const std::string& name, std::string* target, const std::string& help, const std::string& env = "");
  void Int(const std::string& name, int64_t* target, const std::string& help);
  void Bool(const std::string& name, bool* target, const std::string& help);
  // A duration: whole seconds as the Int flags of seconds took them ("30"),
  // or Go-style ("90s", "5m", "1h30m", "250ms"). Neither is
  // INVALID_ARGUMENT "--name: "x" is not a duration ...". Outside [min, max]
  // is INVALID_ARGUMENT "--name: x is out of range (min..max)"; a caller whose
  // flags share one range message leaves the bounds open and checks them
  // itself, as it does for Int flags. An infinite duration is refused.
  void Duration(const std::string& name, absl::Duration* target, const std::string& help,
                absl::Duration min = -absl::InfiniteDuration(), absl::Duration max = absl::InfiniteDuration());

  struct Parsed {
    bool help = false;
    bool version = false;
    std::vector<std::string> positional;
  };
  // Parses args (without the program name). Arguments after `--` are positional.
  absl::StatusOr<Parsed> Parse(const std::vector<std::string>& args);

  std::string Help() const;

 private:
  enum class Kind { kString, kInt, kBool, kDuration };
  struct Flag {
    Kind kind;
    void* target;
    std::string help;
    std::string env;
    bool secret = false;
    bool from_env = false;                           // its value is the environment's (not yet given as a flag)
    absl::Duration min = -absl::InfiniteDuration();  // kDuration's bounds
    absl::Duration max = absl::InfiniteDuration();
  };
  absl::Status Set(const std::string& name, const Flag& flag, const std::string& value);

  std::string program_;
  std::string usage_;
  Environment env_;
  std::map<std::string, Flag> flags_;
};

// argv[first..argc) as strings.
std::vector<std::string> Args(int argc, char** argv, int first = 1);

}  // namespace fleetcap
