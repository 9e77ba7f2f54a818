#include "services/api/status_mapping.h"

#include <atomic>
#include <cstdint>
#include <random>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"

namespace fleetcap::api {
namespace {

// The payload WithRetryAfter adds: the wait in milliseconds, as decimal text.
constexpr char kRetryAfterPayload[] = "type.fleetcap.dev/retry-after-ms";

}  // namespace

absl::Status WithRetryAfter(absl::Status status, absl::Duration wait) {
  status.SetPayload(kRetryAfterPayload, absl::Cord(std::to_string(absl::ToInt64Milliseconds(wait))));
  return status;
}

std::optional<absl::Duration> RetryAfter(const absl::Status& status) {
  const auto payload = status.GetPayload(kRetryAfterPayload);
  int64_t milliseconds = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &milliseconds)) return std::nullopt;
  return absl::Milliseconds(milliseconds);
}

absl::Status ForClient(const absl::Status& status) {
  const absl::StatusCode code = status.code();
  if (code != absl::StatusCode::kInternal && code != absl::StatusCode::kUnknown &&
      code != absl::StatusCode::kDataLoss) {
    return status;
  }
  // Random start: references from two runs of the server do not collide in one log search.
  static std::atomic<uint64_t> next{std::random_device{}()};
  const std::string reference = absl::StrCat(absl::Hex(next.fetch_add(1), absl::kZeroPad12));
  Logger("api")->error("answered {} (reference {}): {}", absl::StatusCodeToString(code), reference,
                       std::string(status.message()));
  return absl::Status(code,
                      absl::StrCat("internal error; the server's log has the details under reference ", reference));
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  const absl::Status told = ForClient(status);
  // absl and gRPC share the canonical code numbering.
  return grpc::Status(static_cast<grpc::StatusCode>(told.code()), std::string(told.message()));
}

int ToHttpStatus(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kAborted:
      return 409;
    case absl::StatusCode::kFailedPrecondition:
      return 412;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnimplemented:
      return 501;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    default:
      return 500;
  }
}

}  // namespace fleetcap::api
