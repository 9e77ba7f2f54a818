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
#include "ingest/telemetry/decode_budget.h"
#include "ingest/telemetry/normaliser.h"

namespace fleetcap::telemetry {

struct DecodedWrite {
  std::vector<CanonicalSeries> series;
  int64_t samples_received = 0;  // every sample in the request
  int64_t samples_usable = 0;    // those in `series`
  DropCounts drops;
};

// The most a valid snappy stream of `compressed_bytes` can decompress to.
// The format's densest element is a copy with a 2-byte offset: 3 bytes that
// repeat at most 64 (a literal never grows, a 1-byte-offset copy gives 11
// from 2, a 4-byte-offset copy 64 from 5), so no stream expands past 64/3.
size_t MaxSnappyDecompressedBytes(size_t compressed_bytes);

// INVALID_ARGUMENT for a body that is not snappy (including a header that
// claims more than MaxSnappyDecompressedBytes of the body), is truncated, or
// is not a WriteRequest; RESOURCE_EXHAUSTED when it would decompress past
// `max_decoded_bytes` or past the whole `budget`; UNAVAILABLE when other
// requests in flight hold too much of `budget` (when given) for now. All of
// these are decided from the header, before anything is allocated.
absl::StatusOr<DecodedWrite> DecodeRemoteWrite(absl::string_view body, const Normaliser& normaliser,
                                               size_t max_decoded_bytes, DecodeBudget* budget = nullptr);

// The inverse, for tests and the benchmark's load generator: one series per
// entry, labels as given (sorted by name here, as Prometheus sends them).
struct RawSeries {
  Labels labels;
  std::vector<Point> points;
};
std::string EncodeRemoteWrite(const std::vector<RawSeries>& series);

}  // namespace fleetcap::telemetry
