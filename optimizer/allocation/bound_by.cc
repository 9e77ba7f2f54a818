#include "optimizer/allocation/bound_by.h"

#include "absl/strings/str_cat.h"
#include "optimizer/allocation/rounding.h"
#include "policy/text_rules.h"

namespace fleetcap::allocation {
namespace {

std::string Devices(int64_t milli) { return policy::FormatDecimal(milli, 3); }

// Each explanation below is one StrCat, so one allocation: this runs for
// every team of every flavor, and most of the engine's time is here.

}  // namespace

void Explain(const FlavorAllocation& flavor, TeamAllocation& t) {
  const long double got = t.exact_milli;
  const int64_t d = t.input.demand_milli, g = t.input.guarantee_milli;
  const int64_t e = t.effective_demand_milli, f = t.floor_milli;
  const bool whole_floor = got >= static_cast<long double>(f) - kToleranceMilli;
  const bool whole_demand = got >= static_cast<long double>(e) - kToleranceMilli;
  if (flavor.oversubscribed && !whole_floor) {
    t.bound_by = kBoundByFairShare;
    t.explanation = absl::StrCat(Devices(t.recommended_milli), " of its floor ", Devices(f), ": guarantees on ",
                                 flavor.flavor, " need ", Devices(flavor.floors_milli), " of capacity ",
                                 Devices(flavor.capacity_milli), ", shared by weight ", t.input.weight);
  } else if (whole_demand && e == d) {
    t.bound_by = kBoundByDemand;
    if (d <= g) {
      t.explanation = absl::StrCat("demand ", Devices(d), " within guarantee ", Devices(g));
    } else if (g == 0) {
      t.explanation = absl::StrCat("demand ", Devices(d), " met, all borrowed (no guarantee)");
    } else {
      t.explanation = absl::StrCat("demand ", Devices(d), " met: guarantee ", Devices(g), " + ",
                                   Devices(t.recommended_milli - f), " borrowed");
    }
  } else if (whole_demand) {
    t.bound_by = kBoundByBorrowingLimit;
    t.explanation = absl::StrCat("demand ", Devices(d), " capped at guarantee ", Devices(g), " + borrowing limit ",
                                 Devices(*t.input.borrowing_limit_milli));
  } else if (flavor.oversubscribed) {
    t.bound_by = kBoundByGuarantee;
    t.explanation = absl::StrCat("its whole guarantee ", Devices(f), " of demand ", Devices(d), ": guarantees on ",
                                 flavor.flavor, " need ", Devices(flavor.floors_milli), " of capacity ",
                                 Devices(flavor.capacity_milli), ", nothing to borrow");
  } else if (flavor.withheld_milli > 0) {
    t.bound_by = kBoundByLendingLimit;
    // "16 guaranteed + 6 borrowed of demand 30: ..."
    t.explanation = absl::StrCat(Devices(f), " guaranteed + ", Devices(t.recommended_milli - f), " borrowed of demand ",
                                 Devices(d), ": the pool on ", flavor.flavor, " is ", Devices(flavor.pool_milli),
                                 " after ", Devices(flavor.withheld_milli),
                                 " withheld under lending limits; fair share at weight ", t.input.weight);
  } else if (flavor.pool_milli == 0) {
    t.bound_by = kBoundByGuarantee;
    t.explanation = absl::StrCat("guarantee ", Devices(g), " of demand ", Devices(d), ": guarantees in use take",
                                 " the whole capacity ", Devices(flavor.capacity_milli), " on ", flavor.flavor);
  } else {
    t.bound_by = kBoundByFairShare;
    t.explanation = absl::StrCat(Devices(f), " guaranteed + ", Devices(t.recommended_milli - f), " borrowed of demand ",
                                 Devices(d), ": fair share at weight ", t.input.weight, " of the pool ",
                                 Devices(flavor.pool_milli), " on ", flavor.flavor);
  }
  // Over-subscribed, the floors take everything: nothing is withheld.
  if (t.withheld_milli > 0 && !flavor.oversubscribed) {
    absl::StrAppend(&t.explanation, "; withholds ", Devices(t.withheld_milli), " of its guarantee (lending limit ",
                    Devices(t.lending_limit_milli), ")");
  }
}

}  // namespace fleetcap::allocation
