#include "common/logging.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "spdlog/sinks/stdout_color_sinks.h"

namespace fleetcap {

absl::Status CheckLogLevel(const std::string& level) {
  // from_str answers `off` for anything it does not know; only accept a real "off".
  if (spdlog::level::from_str(level) == spdlog::level::off && level != "off") {
    return absl::InvalidArgumentError(
        absl::StrCat("--log-level: \"", level, "\" is not one of trace, debug, info, warn, error, critical, off"));
  }
  return absl::OkStatus();
}

absl::Status InitLogging(const std::string& level) {
  FLEETCAP_RETURN_IF_ERROR(CheckLogLevel(level));
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %^%l%$ [%n] %v", spdlog::pattern_time_type::utc);
  return absl::OkStatus();
}

std::shared_ptr<spdlog::logger> Logger(const std::string& name) {
  if (auto existing = spdlog::get(name)) return existing;
  try {
    return spdlog::stderr_color_mt(name);
  } catch (const spdlog::spdlog_ex&) {
    // Another thread registered it between get() and create.
    return spdlog::get(name);
  }
}

}  // namespace fleetcap
