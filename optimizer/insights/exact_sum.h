#pragma once
// Exact rationals (GMP's, through gmpxx.h), and the rounding of a few sums of
// many of them to integers that add up exactly: the spend change's drivers
// (spend_change.h). A sum of many rationals of unrelated denominators grows
// with each term, so a sum is first bounded within 2^-128 per term, which
// settles its rounding unless it lies on an integer or ties another's
// fractional part; only then is it summed exactly.

#include <gmpxx.h>

#include <vector>

namespace fleetcap::insights {

using Integer = mpz_class;
using Exact = mpq_class;

// num / den in lowest terms; den != 0.
Exact Ratio(const Integer& num, const Integer& den);
Integer Floor(const Exact& q);
// The nearest integer, halves away from zero (so -q rounds to its negation).
Integer Nearest(const Exact& q);

// The sign of the sum of `terms`.
int SignOfSum(const std::vector<Exact>& terms);

// Rounds the sums of `sums` (each the sum of its terms), whose exact total
// is the integer `total`, to integers that add up to `total`: each down,
// then one unit each to the largest fractional parts, ties to the earlier
// sum. With `orientation` -1 it rounds the negated sums and negates the
// result, so that rounding the negated sums with the opposite orientation
// gives exactly the negated result.
std::vector<Integer> RoundLargestRemainder(const std::vector<std::vector<Exact>>& sums, const Integer& total,
                                           int orientation);

}  // namespace fleetcap::insights
