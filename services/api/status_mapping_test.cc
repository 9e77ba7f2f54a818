#include "services/api/status_mapping.h"

#include <gtest/gtest.h>

namespace fleetcap::api {
namespace {

TEST(StatusMapping, GrpcKeepsCodeAndMessage) {
  grpc::Status s = ToGrpcStatus(absl::NotFoundError("cluster \"x\" is not known"));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(s.error_message(), "cluster \"x\" is not known");
  EXPECT_TRUE(ToGrpcStatus(absl::OkStatus()).ok());
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
