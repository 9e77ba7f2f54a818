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

TEST(StatusMapping, AServerFailureKeepsItsTextForTheLog) {
  const absl::Status failure = absl::InternalError("reading pods: ERROR: relation \"pods\" does not exist");
  for (const absl::Status& told :
       {ForClient(failure), absl::Status(absl::StatusCode::kInternal, ToGrpcStatus(failure).error_message())}) {
    EXPECT_EQ(told.code(), absl::StatusCode::kInternal);
    EXPECT_THAT(std::string(told.message()), ::testing::Not(::testing::HasSubstr("relation")));
    EXPECT_THAT(std::string(told.message()), ::testing::HasSubstr("reference"));
  }
  // Every other code is the caller's to read, word for word.
  EXPECT_EQ(ForClient(absl::InvalidArgumentError("namespace: bad")), absl::InvalidArgumentError("namespace: bad"));
}

}  // namespace
}  // namespace fleetcap::api
