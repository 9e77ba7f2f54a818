#include "common/flags.h"

#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace fleetcap {

Environment ProcessEnvironment() {
  return [](const std::string& name) {
    const char* value = std::getenv(name.c_str());
    return std::string(value == nullptr ? "" : value);
  };
}

FlagSet::FlagSet(std::string program, std::string usage, Environment env)
    : program_(std::move(program)), usage_(std::move(usage)), env_(std::move(env)) {}

namespace {

// Names that hold a secret by what they say: "token", "db-password", and
// not "token-file" (a path).
bool NamesASecret(const std::string& name) {
  for (const char* word : {"token", "password", "secret"}) {
    const std::string w = word;
    if (name == w) return true;
    if (name.size() > w.size() && absl::EndsWith(name, "-" + w)) return true;
  }
  return false;
}

}  // namespace

void FlagSet::String(const std::string& name, std::string* target, const std::string& help, const std::string& env) {
  bool from_env = false;
  if (!env.empty()) {
    if (std::string value = env_(env); !value.empty()) {
      *target = std::move(value);
      from_env = true;
    }
  }
  flags_[name] = Flag{Kind::kString, target, help, env, NamesASecret(name), from_env};
}

void FlagSet::Secret(const std::string& name, std::string* target, const std::string& help, const std::string& env) {
  String(name, target, help, env);
  flags_[name].secret = true;
}

void FlagSet::Int(const std::string& name, int64_t* target, const std::string& help) {
  flags_[name] = Flag{Kind::kInt, target, help, ""};
}

void FlagSet::Bool(const std::string& name, bool* target, const std::string& help) {
  flags_[name] = Flag{Kind::kBool, target, help, ""};
}

void FlagSet::Duration(const std::string& name, absl::Duration* target, const std::string& help, absl::Duration min,
                       absl::Duration max) {
  Flag flag{Kind::kDuration, target, help, ""};
  flag.min = min;
  flag.max = max;
  flags_[name] = flag;
}

absl::Status FlagSet::Set(const std::string& name, const Flag& flag, const std::string& value) {
  switch (flag.kind) {
    case Kind::kString:
      *static_cast<std::string*>(flag.target) = value;
      return absl::OkStatus();
    case Kind::kInt: {
      int64_t parsed = 0;
      if (!absl::SimpleAtoi(value, &parsed)) {
        return absl::InvalidArgumentError(absl::StrCat("--", name, ": \"", value, "\" is not an integer"));
      }
      *static_cast<int64_t*>(flag.target) = parsed;
      return absl::OkStatus();
    }
    case Kind::kBool: {
      bool parsed = false;
      if (!absl::SimpleAtob(value, &parsed)) {
        return absl::InvalidArgumentError(absl::StrCat("--", name, ": \"", value, "\" is not true or false"));
      }
      *static_cast<bool*>(flag.target) = parsed;
      return absl::OkStatus();
    }
    case Kind::kDuration: {
      absl::Duration parsed;
      int64_t seconds = 0;
      if (absl::SimpleAtoi(value, &seconds)) {
        parsed = absl::Seconds(seconds);
      } else if (!absl::ParseDuration(value, &parsed) || parsed == absl::InfiniteDuration() ||
                 parsed == -absl::InfiniteDuration()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", name, ": \"", value, "\" is not a duration (seconds, or a number with a unit: 90s, 5m, 1h30m)"));
      }
      if (parsed < flag.min || parsed > flag.max) {
        return absl::InvalidArgumentError(absl::StrCat("--", name, ": ", value, " is out of range (",
                                                       absl::FormatDuration(flag.min), "..",
                                                       absl::FormatDuration(flag.max), ")"));
      }
      *static_cast<absl::Duration*>(flag.target) = parsed;
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unreachable flag kind");
}

absl::StatusOr<FlagSet::Parsed> FlagSet::Parse(const std::vector<std::string>& args) {
  Parsed parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      parsed.positional.insert(parsed.positional.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      parsed.positional.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (name == "help") {
      parsed.help = true;
      continue;
    }
    // A command may define its own --version (fleetcapctl policy get --version N).
    if (name == "version" && flags_.count("version") == 0) {
      parsed.version = true;
      continue;
    }
    bool negated = false;
    auto it = flags_.find(name);
    if (it == flags_.end() && name.compare(0, 3, "no-") == 0) {
      it = flags_.find(name.substr(3));
      negated = it != flags_.end() && it->second.kind == Kind::kBool;
      if (!negated) it = flags_.end();
    }
    if (it == flags_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name, " (see ", program_, " --help)"));
    }
    if (it->second.kind == Kind::kBool && !has_value) {
      *static_cast<bool*>(it->second.target) = !negated;
      continue;
    }
    if (!has_value) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(absl::StrCat("--", name, ": missing value"));
      }
      value = args[++i];
    }
    it->second.from_env = false;
    FLEETCAP_RETURN_IF_ERROR(Set(it->first, it->second, value));
  }
  return parsed;
}

std::string FlagSet::Help() const {
  std::string out = absl::StrCat("usage: ", program_, " ", usage_, "\n\nflags:\n");
  for (const auto& [name, flag] : flags_) {
    std::string shown;
    if (flag.secret) {
      // Only where it came from: a value in --help ends up in terminals,
      // scrollback, CI logs and bug reports.
      const bool set = !static_cast<const std::string*>(flag.target)->empty();
      absl::StrAppend(&out, "  --", name, "  ", flag.help);
      if (set && flag.from_env) {
        absl::StrAppend(&out, " [set from ", flag.env, "]\n");
        continue;
      }
      if (set) absl::StrAppend(&out, " [set]");
      if (!flag.env.empty()) absl::StrAppend(&out, " [env ", flag.env, "]");
      absl::StrAppend(&out, "\n");
      continue;
    }
    switch (flag.kind) {
      case Kind::kString:
        shown = *static_cast<const std::string*>(flag.target);
        break;
      case Kind::kInt:
        shown = std::to_string(*static_cast<const int64_t*>(flag.target));
        break;
      case Kind::kBool:
        shown = *static_cast<const bool*>(flag.target) ? "true" : "false";
        break;
      case Kind::kDuration:
        shown = absl::FormatDuration(*static_cast<const absl::Duration*>(flag.target));
        break;
    }
    absl::StrAppend(&out, "  --", name, "  ", flag.help);
    if (!shown.empty()) absl::StrAppend(&out, " (default: ", shown, ")");
    if (!flag.env.empty()) absl::StrAppend(&out, " [env ", flag.env, "]");
    absl::StrAppend(&out, "\n");
  }
  absl::StrAppend(&out, "  --help  this text\n  --version  print the version\n");
  return out;
}

std::vector<std::string> Args(int argc, char** argv, int first) {
  std::vector<std::string> out;
  for (int i = first; i < argc; ++i) out.emplace_back(argv[i]);
  return out;
}

}  // namespace fleetcap
