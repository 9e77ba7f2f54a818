#include "services/ctl/recommendations_format.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "optimizer/allocation/offline_solver.h"
#include "proto_time.h"
#include "services/exports/recommendation_set.h"

namespace fleetcap::ctl {

absl::StatusOr<RecommendationsFormat> ParseRecommendationsFormat(const std::string& text) {
  if (text == "table") return RecommendationsFormat::kTable;
  if (text == "json") return RecommendationsFormat::kJson;
  return absl::InvalidArgumentError(absl::StrCat("--format: \"", text, "\" is not table, json, kueue or volcano"));
}

std::string RenderRecommendations(const v1::RecommendationSet& set, RecommendationsFormat format) {
  switch (format) {
    case RecommendationsFormat::kJson:
      return RecommendationsJson(set);
    case RecommendationsFormat::kTable:
      break;
  }
  return RecommendationsTable(set);
}

std::string RecommendationsTable(const v1::RecommendationSet& set) {
  std::string out =
      absl::StrCat("run ", set.run_id(), " computed at ", FormatRfc3339(FromProtoTimestamp(set.computed_at())),
                   " under policy version ", set.policy_version(), "\n");
  if (set.recommendations().empty()) return out + "no recommendations for the teams asked about\n";
  // The table `fleetcap-optimizer allocate` prints, so both read alike.
  std::vector<allocation::Recommendation> rows;
  for (const v1::Recommendation& r : set.recommendations()) rows.push_back(exports::RecommendationOf(r));
  return out + allocation::RecommendationsTable(rows);
}

std::string RecommendationsJson(const v1::RecommendationSet& set) { return exports::RecommendationSetJson(set); }

}  // namespace fleetcap::ctl
