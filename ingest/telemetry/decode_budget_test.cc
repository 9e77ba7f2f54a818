#include "ingest/telemetry/decode_budget.h"

#include <gtest/gtest.h>

#include <optional>

#include "tests/support/status_matchers.h"

namespace fleetcap::telemetry {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;

TEST(DecodeBudget, LeasesPastTheTotalWaitUntilOthersAreGivenBack) {
  DecodeBudget budget(100);
  std::optional<DecodeBudget::Lease> first;
  {
    auto taken = budget.Take(60);
    ASSERT_THAT(taken, IsOk());
    first.emplace(std::move(*taken));
  }
  EXPECT_EQ(budget.in_use(), 60u);
  EXPECT_THAT(budget.Take(41), StatusIs(absl::StatusCode::kUnavailable));
  {
    auto fits = budget.Take(40);
    ASSERT_THAT(fits, IsOk());
    EXPECT_EQ(budget.in_use(), 100u);
  }
  EXPECT_EQ(budget.in_use(), 60u) << "a lease gives its bytes back when it ends";
  first.reset();
  EXPECT_EQ(budget.in_use(), 0u);
  EXPECT_THAT(budget.Take(100), IsOk());
}

TEST(DecodeBudget, MoreThanTheWholeBudgetIsNeverWorthRetrying) {
  DecodeBudget budget(100);
  EXPECT_THAT(budget.Take(101), StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_EQ(budget.in_use(), 0u);
}

}  // namespace
}  // namespace fleetcap::telemetry
