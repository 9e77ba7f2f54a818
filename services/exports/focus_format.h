#pragma once
// A ChargebackReport as FOCUS 1.2 rows (the FinOps Open Cost and Usage
// Specification): every mandatory column, the team as the sub-account, the
// workload as the resource, device-hours as the quantities, and fleetcap's
// own figures in x_ columns. docs/chargeback.md maps each column.

#include <string>

#include "fleetcap/v1/chargeback.pb.h"

namespace fleetcap::exports {

// Who bills whom in FOCUS terms: the accelerator fleet is one billing
// account, run by one provider that issues and publishes the charges.
struct FocusAccount {
  std::string billing_account_id = "fleetcap";
  std::string billing_account_name = "fleetcap accelerator fleet";
  std::string provider_name = "fleetcap";
};

// A CSV header row of the FOCUS and x_ columns, and one Usage row per line.
// The request's window and resolution give each line its charge period.
std::string ChargebackFocus(const v1::GetChargebackRequest& request, const v1::ChargebackReport& report,
                            const FocusAccount& account = {});

}  // namespace fleetcap::exports
