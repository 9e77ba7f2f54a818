#include "tests/support/status_matchers.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace fleetcap::testing {
namespace {

using ::testing::DescribeMatcher;
using ::testing::HasSubstr;
using ::testing::Not;

// What the matcher says about `value` when an expectation fails.
template <typename Matcher, typename Value>
std::string Explain(const Matcher& matcher, const Value& value) {
  ::testing::StringMatchResultListener listener;
  ::testing::ExplainMatchResult(matcher, value, &listener);
  return listener.str();
}

TEST(IsOk, MatchesAnOkStatusAndAStatusOrWithAValue) {
  EXPECT_THAT(absl::OkStatus(), IsOk());
  EXPECT_THAT(absl::StatusOr<int>(7), IsOk());
}

TEST(IsOk, RejectsAnErrorAndExplainsIt) {
  const absl::Status error = absl::NotFoundError("no such pod");
  EXPECT_THAT(error, Not(IsOk()));
  EXPECT_THAT(absl::StatusOr<std::string>(error), Not(IsOk()));
  EXPECT_THAT(Explain(IsOk(), error), HasSubstr("NOT_FOUND: no such pod"));
  EXPECT_EQ(DescribeMatcher<absl::Status>(IsOk()), "is OK");
}

// Shaped like grpc::Status, which the API's tests check with IsOk() too.
struct RpcStatus {
  int code = 0;
  std::string message;
  bool ok() const { return code == 0; }
  int error_code() const { return code; }
  const std::string& error_message() const { return message; }
};

TEST(IsOk, TakesAStatusWithAnErrorMessage) {
  EXPECT_THAT(RpcStatus{}, IsOk());
  const RpcStatus denied{7, "no access to team ads"};
  EXPECT_THAT(denied, Not(IsOk()));
  EXPECT_THAT(Explain(IsOk(), denied), HasSubstr("code 7: no access to team ads"));
}

TEST(StatusIs, MatchesTheCodeAndTheMessage) {
  const absl::Status error = absl::InvalidArgumentError("pod a/b: spec.nodeName: not a string");
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("spec.nodeName")));
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kInvalidArgument, "pod a/b: spec.nodeName: not a string"));
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(absl::StatusOr<int>(error), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a string")));
}

TEST(StatusIs, RejectsAnotherCodeOrMessage) {
  const absl::Status error = absl::InvalidArgumentError("spec.nodeName: not a string");
  EXPECT_THAT(error, Not(StatusIs(absl::StatusCode::kNotFound)));
  EXPECT_THAT(error, Not(StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("metadata"))));
  EXPECT_THAT(absl::OkStatus(), Not(StatusIs(absl::StatusCode::kInvalidArgument)));
  EXPECT_THAT(absl::StatusOr<int>(3), Not(StatusIs(absl::StatusCode::kInvalidArgument)));
}

TEST(StatusIs, DescribesWhatItExpectsAndWhatItGot) {
  const auto matcher = StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("field"));
  EXPECT_EQ(DescribeMatcher<absl::Status>(matcher),
            "has code INVALID_ARGUMENT and a message that has substring \"field\"");
  EXPECT_THAT(Explain(matcher, absl::NotFoundError("gone")), HasSubstr("NOT_FOUND: gone"));
}

}  // namespace
}  // namespace fleetcap::testing
