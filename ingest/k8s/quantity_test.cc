#include "ingest/k8s/quantity.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/status_matchers.h"

namespace fleetcap::k8s {
namespace {

using ::fleetcap::testing::StatusIs;

TEST(ParseQuantityMilli, IntegersDecimalsAndSuffixes) {
  EXPECT_EQ(*ParseQuantityMilli("2"), 2000);
  EXPECT_EQ(*ParseQuantityMilli("0"), 0);
  EXPECT_EQ(*ParseQuantityMilli("500m"), 500);
  EXPECT_EQ(*ParseQuantityMilli("1.5"), 1500);
  EXPECT_EQ(*ParseQuantityMilli("1k"), 1000000);
  EXPECT_EQ(*ParseQuantityMilli("1Ki"), 1024000);
  EXPECT_EQ(*ParseQuantityMilli("2Gi"), int64_t{2} * 1024 * 1024 * 1024 * 1000);
  EXPECT_EQ(*ParseQuantityMilli("1e3"), 1000000);
  EXPECT_EQ(*ParseQuantityMilli("+3"), 3000);
  EXPECT_EQ(*ParseQuantityMilli("-1"), -1000);
}

TEST(ParseQuantityMilli, RoundsUpBelowAMilli) {
  EXPECT_EQ(*ParseQuantityMilli("0.0001"), 1);
  EXPECT_EQ(*ParseQuantityMilli("100u"), 1);
  EXPECT_EQ(*ParseQuantityMilli("1n"), 1);
}

TEST(ParseQuantityMilli, RejectsWhatIsNotAQuantity) {
  for (const char* bad : {"", "abc", "1x", "1Gb", "1e", "--1", "1e9999"}) {
    EXPECT_THAT(ParseQuantityMilli(bad), StatusIs(absl::StatusCode::kInvalidArgument)) << bad;
  }
  EXPECT_THAT(ParseQuantityMilli("99999999999999999999"), StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace fleetcap::k8s
