#pragma once
// How `fleetcapctl whatif` prints a ScenarioComparison: baseline and
// scenario side by side, for people, or the API's proto3 JSON for programs.
// Money and devices are exact decimals. Pure functions.

#include <string>

#include "fleetcap/v1/planning.pb.h"

namespace fleetcap::ctl {

// Three tables under a header naming the policies, the projected month and
// when the recommendations apply: recommendations per team and flavor, the
// projected bill per team (then idle and the total, which the lines add up
// to), and per flavor capacity, utilisation and exhaustion days ("-": not
// within the horizon).
std::string WhatIfTable(const v1::ScenarioComparison& comparison);

// The canonical proto3 JSON of `message`, every field printed, with whitespace, ending in a newline.
std::string WhatIfJson(const google::protobuf::Message& message);

}  // namespace fleetcap::ctl
