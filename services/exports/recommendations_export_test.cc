#include "services/exports/recommendations_export.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

TEST(RecommendationRows, CarryEveryQuotaFieldAndUnlimitedBorrowingAsNone) {
  v1::RecommendationSet set;
  v1::Recommendation* a = set.add_recommendations();
  a->set_team("vision");
  a->set_flavor("a100");
  a->set_demand_milli(16000);
  a->set_guarantee_milli(8000);
  a->set_recommended_milli(14000);
  a->set_borrowing_limit_milli(6000);
  a->set_lending_limit_milli(2000);
  a->set_bound_by("borrowing_limit");
  v1::Recommendation* b = set.add_recommendations();
  b->set_team("speech");
  b->set_flavor("a100");
  b->set_recommended_milli(1500);
  b->set_bound_by("demand");

  const std::vector<allocation::Recommendation> rows = RecommendationRows(set);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].team, "vision");
  EXPECT_EQ(rows[0].demand_milli, 16000);
  EXPECT_EQ(rows[0].guarantee_milli, 8000);
  EXPECT_EQ(rows[0].recommended_milli, 14000);
  EXPECT_EQ(rows[0].borrowing_limit_milli, 6000);
  EXPECT_EQ(rows[0].lending_limit_milli, 2000);
  EXPECT_EQ(rows[0].bound_by, "borrowing_limit");
  EXPECT_EQ(rows[1].team, "speech");
  EXPECT_FALSE(rows[1].borrowing_limit_milli.has_value());
}

TEST(ParseFlavorResources, ReadsTheListAndNamesABadEntry) {
  auto parsed = ParseFlavorResources("a100-mig=nvidia.com/mig-3g.40gb,v5e=google.com/tpu");
  ASSERT_THAT(parsed, IsOk());
  EXPECT_EQ(parsed->at("a100-mig"), "nvidia.com/mig-3g.40gb");
  EXPECT_EQ(parsed->at("v5e"), "google.com/tpu");
  EXPECT_THAT(ParseFlavorResources(""), IsOk());
  EXPECT_THAT(ParseFlavorResources("a100"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--flavor-resource: \"a100\" is not")));
  EXPECT_THAT(ParseFlavorResources("=nvidia.com/gpu"), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParseFlavorResources("a100="), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParseFlavorResources("a=x,a=y"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flavor \"a\" is given twice")));
}

}  // namespace
}  // namespace fleetcap::exports
