#include "optimizer/insights/exact_sum.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace fleetcap::insights {
namespace {

// The bounds' precision: 2^-128 per term.
constexpr unsigned long kFractionBits = 128;  // NOLINT(runtime/int): GMP's shift type

// The sum lies in [low, high].
struct Bounds {
  Exact low, high;
  bool Point() const { return low == high; }
};

Bounds Enclose(const std::vector<Exact>& terms, int orientation) {
  Integer low, high, scaled, part;
  for (const Exact& t : terms) {
    mpz_mul_2exp(scaled.get_mpz_t(), t.get_num_mpz_t(), kFractionBits);
    if (orientation < 0) scaled = -scaled;
    mpz_fdiv_q(part.get_mpz_t(), scaled.get_mpz_t(), t.get_den_mpz_t());
    low += part;
    mpz_cdiv_q(part.get_mpz_t(), scaled.get_mpz_t(), t.get_den_mpz_t());
    high += part;
  }
  Integer unit;
  mpz_ui_pow_ui(unit.get_mpz_t(), 2, kFractionBits);
  return {Ratio(low, unit), Ratio(high, unit)};
}

// Pairwise, so that the terms added are of like size and the work stays
// near the size of the result times the depth.
Exact Sum(std::vector<Exact> terms) {
  if (terms.empty()) return 0;
  for (size_t width = 1; width < terms.size(); width *= 2) {
    for (size_t i = 0; i + width < terms.size(); i += 2 * width) terms[i] += terms[i + width];
  }
  return terms[0];
}

bool Overlap(const Bounds& x, const Bounds& y) { return !(x.high < y.low || y.high < x.low); }

// RoundLargestRemainder over bounds of the (oriented) sums, or nullopt when
// the bounds do not settle a floor or the order of two fractional parts.
std::optional<std::vector<Integer>> RoundWithin(const std::vector<Bounds>& sums, const Integer& total) {
  const size_t n = sums.size();
  std::vector<Integer> rounded(n);
  std::vector<Bounds> fraction(n);
  Integer left = total;
  for (size_t i = 0; i < n; ++i) {
    rounded[i] = Floor(sums[i].low);
    if (Floor(sums[i].high) != rounded[i]) return std::nullopt;
    const Exact whole(rounded[i]);
    fraction[i] = {sums[i].low - whole, sums[i].high - whole};
    left -= rounded[i];
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const bool tie = fraction[i].Point() && fraction[j].Point();
      if (!tie && Overlap(fraction[i], fraction[j])) return std::nullopt;
    }
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return fraction[x].low > fraction[y].low; });
  for (size_t i = 0; left > 0 && i < n; ++i, --left) rounded[order[i]] += 1;
  return rounded;
}

}  // namespace

Exact Ratio(const Integer& num, const Integer& den) {
  Exact q(num, den);
  q.canonicalize();
  return q;
}

Integer Floor(const Exact& q) {
  Integer f;
  mpz_fdiv_q(f.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return f;
}

Integer Nearest(const Exact& q) {
  const Exact half(1, 2);
  return q >= 0 ? Floor(q + half) : -Floor(-q + half);
}

int SignOfSum(const std::vector<Exact>& terms) {
  const Bounds b = Enclose(terms, 1);
  if (b.low > 0) return 1;
  if (b.high < 0) return -1;
  if (b.Point()) return 0;
  return sgn(Sum(terms));
}

std::vector<Integer> RoundLargestRemainder(const std::vector<std::vector<Exact>>& sums, const Integer& total,
                                           int orientation) {
  std::vector<Bounds> bounds;
  for (const auto& terms : sums) bounds.push_back(Enclose(terms, orientation));
  std::optional<std::vector<Integer>> rounded = RoundWithin(bounds, total * orientation);
  if (!rounded) {
    bounds.clear();
    for (const auto& terms : sums) {
      const Exact sum = Sum(terms) * orientation;
      bounds.push_back({sum, sum});
    }
    rounded = RoundWithin(bounds, total * orientation);
  }
  for (Integer& r : *rounded) r *= orientation;
  return *rounded;
}

}  // namespace fleetcap::insights
