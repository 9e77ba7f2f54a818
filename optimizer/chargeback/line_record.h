#pragma once
// An attribution line as the store keeps it: the one mapping, field by field,
// from the engine's ChargeLine to store::ChargebackLineRecord.

#include "optimizer/attribution/attribution_lines.h"
#include "store/chargeback_repository.h"

namespace fleetcap::chargeback {

store::ChargebackLineRecord RecordOf(attribution::ChargeLine line);

}  // namespace fleetcap::chargeback
