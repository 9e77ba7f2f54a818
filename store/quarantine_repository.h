#pragma once
// Records set aside because they could not be used: one bad input costs only
// itself (DESIGN.md, "Trust and durability"). Every ingest path quarantines
// the record with its reason and goes on with the rest; nothing is retried
// forever together with good records. Implementations are thread-safe.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// Payloads are kept up to this many bytes; longer ones are cut and marked.
inline constexpr size_t kMaxQuarantinePayloadBytes = 64 * 1024;

struct QuarantineRecord {
  int64_t id = 0;      // assigned by the store
  std::string source;  // "k8s", "remote_write", "pull", "replay", ...
  std::string cluster;
  std::string object_key;  // names the record, e.g. "Pod ns/name uid=..."
  std::string reason;      // why it was set aside, naming the field
  std::string payload;     // the record as it arrived (bounded)
  absl::Time at;
};

// `payload` cut to kMaxQuarantinePayloadBytes, with a marker when cut.
std::string BoundedQuarantinePayload(std::string payload);

class QuarantineRepository {
 public:
  virtual ~QuarantineRepository() = default;

  // Stores every record (payloads bounded); ids are assigned by the store.
  virtual absl::Status Add(const std::vector<QuarantineRecord>& records) = 0;
  // The newest records first, at most `limit`; empty `source` / `cluster`
  // match any.
  virtual absl::StatusOr<std::vector<QuarantineRecord>> List(const std::string& source, const std::string& cluster,
                                                             int limit) = 0;
};

}  // namespace fleetcap::store
