#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "optimizer/forecast/forecast.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::forecast {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const absl::Time kSumStart = absl::FromUnixSeconds(1'800'000'000 / 3600 * 3600);

TEST(SumSeriesTest, AddsHourByHourOverTheUnionOfSpans) {
  auto sum = SumSeries({HourlySeries{kSumStart, {1, 2, 3}}, HourlySeries{kSumStart + absl::Hours(2), {10, 20}}});
  ASSERT_THAT(sum, IsOk());
  EXPECT_EQ(sum->start, kSumStart);
  EXPECT_THAT(sum->values, ElementsAre(1, 2, 13, 20));
}

TEST(SumSeriesTest, RefusesAnEmptyListAndNamesTheBadSeries) {
  EXPECT_THAT(SumSeries({}), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty list")));
  EXPECT_THAT(SumSeries({HourlySeries{kSumStart, {1}}, HourlySeries{kSumStart, {-1}}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series[1].values[0]")));
}

TEST(SumSeriesTest, RefusesSeriesThatTogetherSpanTooLong) {
  auto sum = SumSeries({HourlySeries{kSumStart, {1}}, HourlySeries{kSumStart + absl::Hours(kMaxSeriesPoints), {1}}});
  EXPECT_THAT(sum, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("more than the limit")));
}

}  // namespace
}  // namespace fleetcap::forecast
