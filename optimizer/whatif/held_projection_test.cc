#include "optimizer/whatif/held_projection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::whatif {
namespace {

using ::testing::Each;
using ::testing::SizeIs;

TEST(RecentAverage, IsTheMeanOfTheLastWeekRoundedDown) {
  std::vector<int64_t> history(kRecentAverageHours + 10, 9000);  // ten older hours that do not count
  for (int64_t h = 10; h < static_cast<int64_t>(history.size()); ++h)
    history[static_cast<size_t>(h)] = h % 2 == 0 ? 1000 : 2001;
  auto p = RecentAverage().Project(history, 5);
  ASSERT_TRUE(p.has_value());
  EXPECT_THAT(p->p50_milli, SizeIs(5));
  EXPECT_THAT(p->p50_milli, Each(1500));  // (1000 + 2001) / 2 rounded down
  EXPECT_EQ(p->p90_milli, p->p50_milli);
  EXPECT_EQ(p->model, kRecentAverageModel);
}

TEST(RecentAverage, OfAnEmptyHistoryIsZero) {
  auto p = RecentAverage().Project({}, 3);
  ASSERT_TRUE(p.has_value());
  EXPECT_THAT(p->p50_milli, Each(0));
}

class Fixed final : public HeldForecaster {
 public:
  explicit Fixed(std::optional<HeldProjection> p) : p_(std::move(p)) {}
  std::optional<HeldProjection> Project(const std::vector<int64_t>&, int64_t) const override { return p_; }

 private:
  std::optional<HeldProjection> p_;
};

TEST(ProjectHeld, TakesTheForecastersProjectionWhenItCoversTheHorizon) {
  Fixed f(HeldProjection{{1, 2}, {3, 4}, "ets"});
  HeldProjection p = ProjectHeld(&f, {100}, 2);
  EXPECT_EQ(p.model, "ets");
  EXPECT_EQ(p.p90_milli, (std::vector<int64_t>{3, 4}));
}

TEST(ProjectHeld, FallsBackToTheRecentAverageWhenTheForecasterCannotFit) {
  Fixed none(std::nullopt);
  EXPECT_EQ(ProjectHeld(&none, {100, 300}, 2).model, kRecentAverageModel);
  EXPECT_EQ(ProjectHeld(&none, {100, 300}, 2).p50_milli, (std::vector<int64_t>{200, 200}));
  Fixed too_short(HeldProjection{{1}, {1}, "ets"});
  EXPECT_EQ(ProjectHeld(&too_short, {100}, 2).model, kRecentAverageModel);
  EXPECT_EQ(ProjectHeld(nullptr, {100}, 2).model, kRecentAverageModel);
}

}  // namespace
}  // namespace fleetcap::whatif
