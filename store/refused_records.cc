#include "store/refused_records.h"

namespace fleetcap::store {
namespace {

// Writes [begin, end), whose refusal is already known when `refusal` is not OK.
absl::Status WriteRange(size_t begin, size_t end, absl::Status refusal, const RefusedRecords& how, size_t& written) {
  if (begin == end) return absl::OkStatus();
  if (refusal.ok()) {
    refusal = how.write(begin, end);
    if (refusal.ok()) {
      written = end;
      return refusal;
    }
    if (!how.refused(refusal)) return refusal;
  }
  if (end - begin == 1) {
    how.set_aside(begin, refusal);
    written = end;
    return absl::OkStatus();
  }
  const size_t mid = begin + (end - begin) / 2;
  if (absl::Status first = WriteRange(begin, mid, absl::OkStatus(), how, written); !first.ok()) return first;
  return WriteRange(mid, end, absl::OkStatus(), how, written);
}

}  // namespace

absl::Status WriteAroundRefusals(size_t n, const absl::Status& refusal, const RefusedRecords& how, size_t& written) {
  written = 0;
  return WriteRange(0, n, refusal, how, written);
}

}  // namespace fleetcap::store
