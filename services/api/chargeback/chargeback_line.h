#pragma once
// A stored chargeback sum as the API's ChargebackLine: one mapping for the
// report and for the stored side of an explanation.

#include <cstdint>

#include "fleetcap/v1/chargeback.pb.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

// How much of the held time with a reading was used: held time without one
// is unknown, not unused, so it is left out. Above 1 when a hold of part of
// a device used more than its part; 0 when nothing was observed.
double Efficiency(int64_t used_milli_seconds, int64_t observed_milli_seconds);

v1::ChargebackLine ToLine(const store::ChargebackSum& sum);

}  // namespace fleetcap::api
