#include "common/exit.h"

#include "absl/strings/cord.h"

namespace fleetcap {
namespace {

constexpr char kCommandLinePayload[] = "type.fleetcap.io/command-line-error";

}  // namespace

absl::Status CommandLineError(absl::Status status) {
  if (!status.ok()) status.SetPayload(kCommandLinePayload, absl::Cord("1"));
  return status;
}

int ExitCode(absl::string_view who, const absl::Status& status, int code, std::ostream& err) {
  if (status.ok()) return kExitOk;
  err << who << ": " << status.message() << "\n";
  return status.GetPayload(kCommandLinePayload).has_value() ? kExitUsage : code;
}

}  // namespace fleetcap
