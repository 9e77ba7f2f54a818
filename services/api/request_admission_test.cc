#include "services/api/request_admission.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

TEST(RequestAdmission, OneTokenGetsItsShareAndNoMore) {
  RequestAdmission admission({/*per_token=*/2, /*total=*/3});
  auto a = admission.Admit("a"), b = admission.Admit("a");
  ASSERT_THAT(a, IsOk());
  ASSERT_THAT(b, IsOk());
  EXPECT_THAT(admission.Admit("a"), StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("this token")));
  // Another token still gets in: one client's burst is its own wait.
  auto c = admission.Admit("c");
  ASSERT_THAT(c, IsOk());
  // ... until the whole bound is reached.
  EXPECT_THAT(admission.Admit("d"), StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("the API")));
  // An answered request gives its place back.
  { RequestAdmission::Ticket done = *std::move(a); }
  EXPECT_THAT(admission.Admit("d"), IsOk());
  EXPECT_THAT(admission.Admit("a"), IsOk());
}

TEST(RequestAdmission, MovedTicketsReleaseOnce) {
  RequestAdmission admission({/*per_token=*/1, /*total=*/1});
  std::vector<RequestAdmission::Ticket> held;
  held.push_back(*admission.Admit("a"));
  RequestAdmission::Ticket moved = std::move(held.back());
  held.clear();
  EXPECT_THAT(admission.Admit("a"), StatusIs(absl::StatusCode::kResourceExhausted));
  moved = RequestAdmission::Ticket();
  EXPECT_THAT(admission.Admit("a"), IsOk());
}

}  // namespace
}  // namespace fleetcap::api
