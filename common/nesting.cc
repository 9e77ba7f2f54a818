#include "common/nesting.h"

#include "absl/strings/str_cat.h"

namespace fleetcap {

absl::Status NestingError(absl::string_view what, const NestingProblem& problem) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": line ", problem.line, ": ", problem.message));
}

absl::Status NestingStatus(absl::string_view what, const std::optional<NestingProblem>& problem) {
  return problem ? NestingError(what, *problem) : absl::OkStatus();
}

}  // namespace fleetcap
