#include "services/api/status_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;

TEST(StatusMapping, GrpcKeepsCodeAndMessage) {
  grpc::Status s = ToGrpcStatus(absl::NotFoundError("cluster \"x\" is not known"));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(s.error_message(), "cluster \"x\" is not known");
  EXPECT_THAT(ToGrpcStatus(absl::OkStatus()), IsOk());
}

TEST(StatusMapping, HttpCodes) {
  EXPECT_EQ(ToHttpStatus(absl::StatusCode::kOk), 200);
  EXPECT_EQ(ToHttpStatus(absl::StatusCode::kInvalidArgument), 400);
  EXPECT_EQ(ToHttpStatus(absl::StatusCode::kUnauthenticated), 401);
  EXPECT_EQ(ToHttpStatus(absl::StatusCode::kPermissionDenied), 403);
  EXPECT_EQ(ToHttpStatus(absl::StatusCode::kNotFound), 404);
  EXPECT_EQ(ToHttpStatus(absl::StatusCode::kUnavailable), 503);
  EXPECT_EQ(ToHttpStatus(absl::StatusCode::kInternal), 500);
}

}  // namespace
}  // namespace fleetcap::api
