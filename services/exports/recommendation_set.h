#pragma once
// A recommendation set as the API's RecommendationSet message
// (proto/fleetcap/v1/allocation.proto), and its proto3 JSON: what
// `fleetcapctl recommendations --format json` and `fleetcap-optimizer
// allocate --format json` print. The optimizer's Recommendation and the
// message have the same fields; these are the only conversions between them.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "fleetcap/v1/allocation.pb.h"
#include "optimizer/allocation/recommendation.h"

namespace fleetcap::exports {

// The run a set comes from; an offline solve has run_id and policy_version 0.
struct RecommendationSetHeader {
  int64_t run_id = 0;
  absl::Time computed_at;  // within the years 1-9999, as google.protobuf.Timestamp
  int32_t policy_version = 0;
  int64_t previous_run_id = 0;  // 0: no run before this one (an offline solve)
};

// With the Kueue limits the manifests write (SetKueueLimits).
v1::Recommendation RecommendationMessage(const allocation::Recommendation& recommendation);
// Sets `message`'s kueue_borrowing_limit and kueue_lending_limit from its
// other fields, as the Kueue manifests write them (kueue_manifests.h).
void SetKueueLimits(v1::Recommendation& message);
allocation::Recommendation RecommendationOf(const v1::Recommendation& message);

v1::RecommendationSet RecommendationSetMessage(const RecommendationSetHeader& header,
                                               const std::vector<allocation::Recommendation>& recommendations);

// protobuf's canonical proto3 JSON of `set` with every primitive field and
// whitespace (JsonPrintOptions always_print_primitive_fields and
// add_whitespace), ending in a newline. Strings must be valid UTF-8 (team and
// flavor names are ASCII; explanations are built from them).
std::string RecommendationSetJson(const v1::RecommendationSet& set);

std::string RecommendationSetJson(const RecommendationSetHeader& header,
                                  const std::vector<allocation::Recommendation>& recommendations);

}  // namespace fleetcap::exports
