#include "optimizer/attribution/price_schedule.h"

#include <gtest/gtest.h>

#include <optional>
#include <tuple>

namespace fleetcap::attribution {
namespace {

policy::Price P(const std::string& cluster, int64_t from, std::optional<int64_t> to, int64_t micro) {
  policy::Price p;
  p.model = "T4";
  p.cluster = cluster;
  p.from = absl::FromUnixSeconds(from);
  if (to) p.to = absl::FromUnixSeconds(*to);
  p.micro_per_device_hour = micro;
  return p;
}

std::vector<std::tuple<int64_t, int64_t, int64_t>> Flat(const std::vector<PricePeriod>& periods) {
  std::vector<std::tuple<int64_t, int64_t, int64_t>> out;
  for (const PricePeriod& p : periods) out.emplace_back(p.from, p.to, p.micro_per_device_hour);
  return out;
}

TEST(PriceTimeline, AClustersOwnPriceWinsWhereItIsInForceAndTheGeneralOneFillsAround) {
  const std::vector<policy::Price> prices = {P("", 0, 100, 10), P("", 100, std::nullopt, 20), P("eu-1", 50, 150, 7),
                                             P("us-1", 0, std::nullopt, 99)};
  EXPECT_EQ(Flat(PriceTimeline(prices, "T4", "eu-1")),
            (std::vector<std::tuple<int64_t, int64_t, int64_t>>{{0, 50, 10}, {50, 150, 7}, {150, kForever, 20}}));
  EXPECT_EQ(Flat(PriceTimeline(prices, "T4", "ap-1")),
            (std::vector<std::tuple<int64_t, int64_t, int64_t>>{{0, 100, 10}, {100, kForever, 20}}));
}

TEST(PriceTimeline, TimeInNoPeriodHasNoPriceAndOtherModelsDoNotCount) {
  const std::vector<policy::Price> prices = {P("", 0, 10, 5), P("", 20, 30, 5)};
  EXPECT_EQ(Flat(PriceTimeline(prices, "T4", "c")),
            (std::vector<std::tuple<int64_t, int64_t, int64_t>>{{0, 10, 5}, {20, 30, 5}}));
  EXPECT_TRUE(PriceTimeline(prices, "A100", "c").empty());
}

}  // namespace
}  // namespace fleetcap::attribution
