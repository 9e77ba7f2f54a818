#pragma once
// A message as the canonical proto3 JSON that fleetcapctl's --format json
// prints: every field present (unset optional fields stay absent, unknown
// rather than zero), laid out for people.

#include <string>

#include "google/protobuf/message.h"

namespace fleetcap::exports {

std::string ProtoJson(const google::protobuf::Message& message);

}  // namespace fleetcap::exports
