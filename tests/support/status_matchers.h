#pragma once
// gmock matchers for absl::Status and absl::StatusOr<T>, so that a failing
// test prints the status it got instead of "false":
//   EXPECT_THAT(ParseThing(text), IsOk());
//   EXPECT_THAT(ParseThing(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("field")));
// IsOk() also takes a grpc::Status (anything with ok() and error_message()),
// without this header depending on gRPC.
// Debian's Abseil (20220623) ships no status matchers, so they live here once.
// Header-only: unit tests beside the code use it as well as the tests in tests/.

#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include <gmock/gmock.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace fleetcap::testing {
namespace status_matchers_internal {

inline const absl::Status& StatusOf(const absl::Status& status) { return status; }

template <typename T>
const absl::Status& StatusOf(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// A status of another library that says what went wrong in error_message() (grpc::Status).
template <typename T, typename = void>
struct HasErrorMessage : std::false_type {};
template <typename T>
struct HasErrorMessage<T, std::void_t<decltype(std::declval<const T&>().error_message())>> : std::true_type {};

class IsOkMatcher {
 public:
  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual, ::testing::MatchResultListener* listener) const {
    if constexpr (HasErrorMessage<StatusType>::value) {
      if (!actual.ok()) *listener << "which is code " << actual.error_code() << ": " << actual.error_message();
      return actual.ok();
    } else {
      const absl::Status& status = StatusOf(actual);
      if (!status.ok()) *listener << "which is " << status;
      return status.ok();
    }
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK"; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not OK"; }
};

class StatusIsMatcher {
 public:
  StatusIsMatcher(absl::StatusCode code, ::testing::Matcher<const std::string&> message)
      : code_(code), message_(std::move(message)) {}

  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual, ::testing::MatchResultListener* listener) const {
    const absl::Status& status = StatusOf(actual);
    *listener << "which is " << status;
    if (status.code() != code_) return false;
    ::testing::StringMatchResultListener message_listener;
    const bool matched = message_.MatchAndExplain(std::string(status.message()), &message_listener);
    if (!matched && !message_listener.str().empty()) *listener << ", whose message " << message_listener.str();
    return matched;
  }
  void DescribeTo(std::ostream* os) const {
    *os << "has code " << absl::StatusCodeToString(code_) << " and a message that ";
    message_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "does not have code " << absl::StatusCodeToString(code_) << " or has a message that ";
    message_.DescribeNegationTo(os);
  }

 private:
  absl::StatusCode code_;
  ::testing::Matcher<const std::string&> message_;
};

}  // namespace status_matchers_internal

// Matches an OK absl::Status or an absl::StatusOr<T> that holds a value.
inline ::testing::PolymorphicMatcher<status_matchers_internal::IsOkMatcher> IsOk() {
  return ::testing::MakePolymorphicMatcher(status_matchers_internal::IsOkMatcher());
}

// Matches a status (or the status of a StatusOr) with `code` and a message
// matched by `message` (a string or a matcher such as HasSubstr("field")).
template <typename MessageMatcher>
::testing::PolymorphicMatcher<status_matchers_internal::StatusIsMatcher> StatusIs(absl::StatusCode code,
                                                                                  MessageMatcher&& message) {
  return ::testing::MakePolymorphicMatcher(status_matchers_internal::StatusIsMatcher(
      code, ::testing::MatcherCast<const std::string&>(std::forward<MessageMatcher>(message))));
}

// Matches a status with `code`, whatever its message.
inline ::testing::PolymorphicMatcher<status_matchers_internal::StatusIsMatcher> StatusIs(absl::StatusCode code) {
  return StatusIs(code, ::testing::_);
}

}  // namespace fleetcap::testing
