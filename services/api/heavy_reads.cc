#include "services/api/heavy_reads.h"

#include "absl/strings/str_cat.h"
#include "common/memory_return.h"
#include "services/api/status_mapping.h"

namespace fleetcap::api {

HeavyReads::Place::~Place() {
  if (!heavy_) return;
  // The read's lines are freed by now (a Place outlives what its read made).
  ReturnFreeMemory();
}

absl::StatusOr<HeavyReads::Place> HeavyReads::Admit(const std::string& token_id, int64_t rows) {
  if (rows <= limits_.rows) return Place();
  auto place = places_.Admit(token_id);
  if (place.ok()) return Place(*std::move(place));
  return WithRetryAfter(
      absl::UnavailableError(absl::StrCat("this read goes through about ", rows, " stored rows, more than ",
                                          limits_.rows, "; heavy reads run ", limits_.total, " at once and ",
                                          limits_.per_token, " per token, and none is free: ", place.status().message(),
                                          ". Retry shortly, or narrow the window or the grouping")),
      limits_.retry_after);
}

}  // namespace fleetcap::api
