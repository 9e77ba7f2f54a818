#include "services/exports/proto_json.h"

#include "google/protobuf/util/json_util.h"

namespace fleetcap::exports {

std::string ProtoJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.add_whitespace = true;
  std::string json;
  // Printing a generated message cannot fail: it has no Any or unknown types.
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

}  // namespace fleetcap::exports
