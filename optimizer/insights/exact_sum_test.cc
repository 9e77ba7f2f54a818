// RoundLargestRemainder against the rounding of the exact sums worked out
// here, over random sums of rationals (seeded), including sums that lie on
// an integer and fractional parts that tie, which the bounds cannot settle.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "optimizer/insights/exact_sum.h"

namespace fleetcap::insights {
namespace {

// As text: gmpxx's printing lives in libgmpxx, which nothing else needs.
std::vector<std::string> Text(const std::vector<Integer>& v) {
  std::vector<std::string> out;
  for (const Integer& i : v) out.push_back(i.get_str());
  return out;
}

// Largest remainder on the exact sums, the plain way.
std::vector<Integer> Expected(const std::vector<std::vector<Exact>>& sums, const Integer& total, int orientation) {
  std::vector<Exact> exact;
  for (const auto& terms : sums) {
    Exact s = 0;
    for (const Exact& t : terms) s += t;
    exact.push_back(s * orientation);
  }
  std::vector<Integer> rounded;
  Integer left = total * orientation;
  for (const Exact& s : exact) {
    rounded.push_back(Floor(s));
    left -= rounded.back();
  }
  std::vector<size_t> order(exact.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return exact[x] - Exact(rounded[x]) > exact[y] - Exact(rounded[y]); });
  for (size_t i = 0; left > 0; ++i, --left) rounded[order[i]] += 1;
  for (Integer& r : rounded) r *= orientation;
  return rounded;
}

TEST(ExactSum, RoundsAsTheExactSumsDoWhetherOrNotTheBoundsSettleThem) {
  std::mt19937_64 rng(33);
  auto in = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  for (int round = 0; round < 2000; ++round) {
    SCOPED_TRACE(round);
    std::vector<std::vector<Exact>> sums(static_cast<size_t>(in(1, 7)));
    Exact total_exact = 0;
    for (auto& terms : sums) {
      for (int64_t n = in(0, 6); n > 0; --n) {
        // Thirds and sevenths often, so sums land on integers and tie.
        const int64_t den = in(0, 1) == 0 ? (in(0, 1) == 0 ? 3 : 7) : in(1, 1'000'000'007);
        terms.push_back(Ratio(in(-1'000'000'000'000, 1'000'000'000'000), den));
        total_exact += terms.back();
      }
    }
    // Make the total whole: the last sum takes what is left to the next integer.
    const Exact missing = Exact(Floor(total_exact) + 1) - total_exact;
    if (missing != 1) sums.back().push_back(missing);
    const Integer total = Floor(total_exact + (missing != 1 ? missing : Exact(0)));
    const int orientation = in(0, 1) == 0 ? 1 : -1;
    const std::vector<Integer> got = RoundLargestRemainder(sums, total, orientation);
    EXPECT_EQ(Text(got), Text(Expected(sums, total, orientation)));
    EXPECT_TRUE(std::accumulate(got.begin(), got.end(), Integer(0)) == total);
  }
}

TEST(ExactSum, SignOfSumIsExactOnTheEdge) {
  EXPECT_EQ(SignOfSum({Ratio(1, 3), Ratio(-1, 3)}), 0);
  EXPECT_EQ(SignOfSum({Ratio(1, 3), Ratio(-333333333, 1000000000)}), 1);
  EXPECT_EQ(SignOfSum({Ratio(-1, 7), Ratio(1, 7), Ratio(-1, 1000000007)}), -1);
  EXPECT_EQ(SignOfSum({}), 0);
}

TEST(ExactSum, NearestRoundsHalvesAwayFromZero) {
  EXPECT_EQ(Nearest(Ratio(5, 2)).get_si(), 3);
  EXPECT_EQ(Nearest(Ratio(-5, 2)).get_si(), -3);
  EXPECT_EQ(Nearest(Ratio(7, 3)).get_si(), 2);
  EXPECT_EQ(Nearest(Ratio(-7, 3)).get_si(), -2);
}

}  // namespace
}  // namespace fleetcap::insights
