#pragma once
// The API's RecommendationSet (proto/fleetcap/v1/allocation.proto) as
// `fleetcapctl recommendations --format json` prints it: protobuf's
// canonical proto3 JSON with every primitive field and whitespace
// (JsonPrintOptions always_print_primitive_fields and add_whitespace), and a
// final newline. Written by hand because optimizer/ may not include the
// generated API; tests/allocation/recommendation_json_test.cc parses it into
// the message and holds protobuf's own printing of it byte-identical.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "optimizer/allocation/recommendation.h"

namespace fleetcap::allocation {

// The run a set comes from; an offline solve has run_id and policy_version 0.
struct RecommendationSetHeader {
  int64_t run_id = 0;
  absl::Time computed_at;  // within the years 1-9999, as google.protobuf.Timestamp
  int32_t policy_version = 0;
  int64_t previous_run_id = 0;  // 0: no run before this one (an offline solve)
};

// Strings must be valid UTF-8 (team and flavor names are ASCII; explanations
// are built from them).
std::string RecommendationSetJson(const RecommendationSetHeader& header,
                                  const std::vector<Recommendation>& recommendations);

// A JSON string literal escaped as protobuf's printer escapes it: `"`, `\`,
// `<`, `>`, control and invisible format characters as \uXXXX (surrogate
// pairs past U+FFFF), \b \t \n \f \r by name.
std::string ProtoJsonString(const std::string& utf8);

// google.protobuf.Timestamp's JSON: RFC 3339 in UTC with 0, 3, 6 or 9
// fractional digits, as few as hold the value.
std::string ProtoJsonTimestamp(absl::Time t);

}  // namespace fleetcap::allocation
