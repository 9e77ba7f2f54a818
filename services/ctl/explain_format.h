#pragma once
// How `fleetcapctl chargeback explain` writes a ChargebackExplanation: for
// each line, its holds (seconds, milli-devices, prices, share of the line's
// charge, direct cost), then the idle, shared and fixed parts it received,
// then its total; or the explanation's proto3 JSON. Pure functions; every
// amount is printed exactly from its micro-units (exact_decimal.h).

#include <string>

#include "fleetcap/v1/chargeback.pb.h"
#include "services/ctl/client.h"

namespace fleetcap::ctl {

std::string RenderExplanation(const v1::ChargebackExplanation& explanation, Format format);

// One block per line: a heading naming the line, a table of its parts
// whose AMOUNT column adds up to the line's TOTAL row, and a note when the
// stored line differs.
std::string ExplanationTable(const v1::ChargebackExplanation& explanation);

// The canonical proto3 JSON of the explanation, every field present.
std::string ExplanationJson(const v1::ChargebackExplanation& explanation);

// An exact weight (decimal integer text, micro-units x milli-devices x
// seconds per hour) as money: exact when it is a whole number of
// micro-units, else rounded to the micro-unit half up and marked "~".
std::string WeightAsMoney(const std::string& weight);

// `part` of `whole` (weights) as a percentage with two decimals, "-" when
// `whole` is zero.
std::string WeightShare(const std::string& part, const std::string& whole);

}  // namespace fleetcap::ctl
