#pragma once
// How `fleetcapctl recommendations` prints a RecommendationSet: a table for
// people, the API's proto3 JSON for programs. Pure functions.

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/allocation.pb.h"

namespace fleetcap::ctl {

// Each output of `fleetcapctl recommendations`; a new one (a scheduler's
// manifests) is a value here, a name in ParseRecommendationsFormat and a
// case in RenderRecommendations.
enum class RecommendationsFormat { kTable, kJson };

// "table" or "json"; anything else is INVALID_ARGUMENT naming --format.
absl::StatusOr<RecommendationsFormat> ParseRecommendationsFormat(const std::string& text);

std::string RenderRecommendations(const v1::RecommendationSet& set, RecommendationsFormat format);

// One row per team and flavor, devices as exact decimals ("-": unlimited
// borrowing), under a line naming the run: the table of
// `fleetcap-optimizer allocate`.
std::string RecommendationsTable(const v1::RecommendationSet& set);

// The canonical proto3 JSON of `set`, every field printed, with whitespace
// (ending in a newline): what `fleetcap-optimizer allocate --format json`
// prints too.
std::string RecommendationsJson(const v1::RecommendationSet& set);

}  // namespace fleetcap::ctl
