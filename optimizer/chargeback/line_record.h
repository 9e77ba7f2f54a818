#pragma once
// An attribution line, and a device held in an hour, as the store keeps them:
// the one mapping, field by field, from the engine's ChargeLine to
// store::ChargebackLineRecord and from its DeviceHourUse to
// store::DeviceHourRecord.

#include "optimizer/attribution/attribution_lines.h"
#include "store/chargeback_repository.h"

namespace fleetcap::chargeback {

store::ChargebackLineRecord RecordOf(attribution::ChargeLine line);
store::DeviceHourRecord RecordOf(absl::Time hour, attribution::DeviceHourUse device);

}  // namespace fleetcap::chargeback
