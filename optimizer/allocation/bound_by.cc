#include "optimizer/allocation/bound_by.h"

#include "absl/strings/str_cat.h"
#include "optimizer/allocation/rounding.h"
#include "policy/text_rules.h"

namespace fleetcap::allocation {
namespace {

// Which rule bound the team: decided once, read by both SetBoundBy and
// Explanation, so the word and the line never disagree.
enum class Case {
  kShareOfOversubscribedFloors,  // the floors exceed capacity and the team got less than its floor
  kDemandWithinGuarantee,
  kDemandAllBorrowed,
  kDemandGuaranteePlusBorrowed,
  kBorrowingLimit,
  kWholeGuaranteeOversubscribed,
  kFairShareAfterWithheld,
  kGuaranteesTakeEverything,
  kFairShare,
};

Case Classify(const FlavorAllocation& flavor, const TeamAllocation& t) {
  const long double got = t.exact_milli;
  const int64_t d = t.input.demand_milli, g = t.input.guarantee_milli;
  const int64_t e = t.effective_demand_milli, f = t.floor_milli;
  const bool whole_floor = got >= static_cast<long double>(f) - kToleranceMilli;
  const bool whole_demand = got >= static_cast<long double>(e) - kToleranceMilli;
  if (flavor.oversubscribed && !whole_floor) return Case::kShareOfOversubscribedFloors;
  if (whole_demand && e == d) {
    if (d <= g) return Case::kDemandWithinGuarantee;
    return g == 0 ? Case::kDemandAllBorrowed : Case::kDemandGuaranteePlusBorrowed;
  }
  if (whole_demand) return Case::kBorrowingLimit;
  if (flavor.oversubscribed) return Case::kWholeGuaranteeOversubscribed;
  if (flavor.withheld_milli > 0) return Case::kFairShareAfterWithheld;
  if (flavor.pool_milli == 0) return Case::kGuaranteesTakeEverything;
  return Case::kFairShare;
}

}  // namespace

void SetBoundBy(const FlavorAllocation& flavor, TeamAllocation& t) {
  switch (Classify(flavor, t)) {
    case Case::kDemandWithinGuarantee:
    case Case::kDemandAllBorrowed:
    case Case::kDemandGuaranteePlusBorrowed:
      t.bound_by = kBoundByDemand;
      return;
    case Case::kBorrowingLimit:
      t.bound_by = kBoundByBorrowingLimit;
      return;
    case Case::kWholeGuaranteeOversubscribed:
    case Case::kGuaranteesTakeEverything:
      t.bound_by = kBoundByGuarantee;
      return;
    case Case::kFairShareAfterWithheld:
      t.bound_by = kBoundByLendingLimit;
      return;
    case Case::kShareOfOversubscribedFloors:
    case Case::kFairShare:
      t.bound_by = kBoundByFairShare;
      return;
  }
}

std::string Explanation(const FlavorAllocation& flavor, const TeamAllocation& t) {
  const int64_t d = t.input.demand_milli, g = t.input.guarantee_milli, f = t.floor_milli;
  std::string text;
  switch (Classify(flavor, t)) {
    case Case::kShareOfOversubscribedFloors:
      text = absl::StrCat(policy::FormatDevices(t.recommended_milli), " of its floor ", policy::FormatDevices(f),
                          ": guarantees on ", flavor.flavor, " need ", policy::FormatDevices(flavor.floors_milli),
                          " of capacity ", policy::FormatDevices(flavor.capacity_milli), ", shared by weight ",
                          t.input.weight);
      break;
    case Case::kDemandWithinGuarantee:
      text = absl::StrCat("demand ", policy::FormatDevices(d), " within guarantee ", policy::FormatDevices(g));
      break;
    case Case::kDemandAllBorrowed:
      text = absl::StrCat("demand ", policy::FormatDevices(d), " met, all borrowed (no guarantee)");
      break;
    case Case::kDemandGuaranteePlusBorrowed:
      text = absl::StrCat("demand ", policy::FormatDevices(d), " met: guarantee ", policy::FormatDevices(g), " + ",
                          policy::FormatDevices(t.recommended_milli - f), " borrowed");
      break;
    case Case::kBorrowingLimit:
      text = absl::StrCat("demand ", policy::FormatDevices(d), " capped at guarantee ", policy::FormatDevices(g),
                          " + borrowing limit ", policy::FormatDevices(*t.input.borrowing_limit_milli));
      break;
    case Case::kWholeGuaranteeOversubscribed:
      text = absl::StrCat("its whole guarantee ", policy::FormatDevices(f), " of demand ", policy::FormatDevices(d),
                          ": guarantees on ", flavor.flavor, " need ", policy::FormatDevices(flavor.floors_milli),
                          " of capacity ", policy::FormatDevices(flavor.capacity_milli), ", nothing to borrow");
      break;
    case Case::kFairShareAfterWithheld:
      // "16 guaranteed + 6 borrowed of demand 30: ..."
      text = absl::StrCat(policy::FormatDevices(f), " guaranteed + ", policy::FormatDevices(t.recommended_milli - f),
                          " borrowed of demand ", policy::FormatDevices(d), ": the pool on ", flavor.flavor, " is ",
                          policy::FormatDevices(flavor.pool_milli), " after ",
                          policy::FormatDevices(flavor.withheld_milli),
                          " withheld under lending limits; fair share at weight ", t.input.weight);
      break;
    case Case::kGuaranteesTakeEverything:
      text = absl::StrCat("guarantee ", policy::FormatDevices(g), " of demand ", policy::FormatDevices(d),
                          ": guarantees in use take", " the whole capacity ",
                          policy::FormatDevices(flavor.capacity_milli), " on ", flavor.flavor);
      break;
    case Case::kFairShare:
      text = absl::StrCat(policy::FormatDevices(f), " guaranteed + ", policy::FormatDevices(t.recommended_milli - f),
                          " borrowed of demand ", policy::FormatDevices(d), ": fair share at weight ", t.input.weight,
                          " of the pool ", policy::FormatDevices(flavor.pool_milli), " on ", flavor.flavor);
      break;
  }
  // Over-subscribed, the floors take everything: nothing is withheld.
  if (t.withheld_milli > 0 && !flavor.oversubscribed) {
    absl::StrAppend(&text, "; withholds ", policy::FormatDevices(t.withheld_milli), " of its guarantee (lending limit ",
                    policy::FormatDevices(t.lending_limit_milli), ")");
  }
  return text;
}

}  // namespace fleetcap::allocation
