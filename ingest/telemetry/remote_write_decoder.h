#pragma once
// Decodes one remote_write 1.0 body: snappy block compression around a
// protobuf WriteRequest. Every series goes through the normaliser; what is
// not a usable measurement is counted in `drops`. Metadata is ignored.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/normaliser.h"

namespace fleetcap::telemetry {

struct DecodedWrite {
  std::vector<CanonicalSeries> series;
  int64_t samples_received = 0;  // every sample in the request
  int64_t samples_usable = 0;    // those in `series`
  DropCounts drops;
};

// INVALID_ARGUMENT for a body that is not snappy, is truncated, or is not a
// WriteRequest; RESOURCE_EXHAUSTED when it would decompress past
// `max_decoded_bytes`.
absl::StatusOr<DecodedWrite> DecodeRemoteWrite(absl::string_view body, const Normaliser& normaliser,
                                               size_t max_decoded_bytes);

// The inverse, for tests and the benchmark's load generator: one series per
// entry, labels as given (sorted by name here, as Prometheus sends them).
struct RawSeries {
  Labels labels;
  std::vector<Point> points;
};
std::string EncodeRemoteWrite(const std::vector<RawSeries>& series);

}  // namespace fleetcap::telemetry
