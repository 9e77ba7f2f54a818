// Fuzz target: one remote_write request body (snappy around a protobuf
// WriteRequest), as any client that reaches the receiver's port can send it.
// Beyond not crashing, the decoder must keep its own accounting straight.

#include <cstdint>
#include <cstdlib>

#include "ingest/telemetry/metric_mapping.h"
#include "ingest/telemetry/normaliser.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

// The receiver's default body limit is larger; a smaller one here keeps each
// run fast and still exercises the RESOURCE_EXHAUSTED path.
constexpr size_t kMaxDecodedBytes = 1 << 20;

}  // namespace

int fleetcap::fuzz::FuzzOneInput(const uint8_t* data, size_t size) {
  using namespace fleetcap::telemetry;
  static const Normaliser normaliser(&DefaultMetricMapping());
  auto decoded =
      DecodeRemoteWrite(absl::string_view(reinterpret_cast<const char*>(data), size), normaliser, kMaxDecodedBytes);
  if (!decoded.ok()) return 0;
  int64_t points = 0;
  for (const auto& series : decoded->series) {
    if (series.points.empty()) std::abort();  // an empty series is never returned
    points += static_cast<int64_t>(series.points.size());
  }
  if (points != decoded->samples_usable) std::abort();
  if (decoded->samples_usable > decoded->samples_received) std::abort();
  if (decoded->samples_usable + decoded->drops.Total() != decoded->samples_received) std::abort();
  return 0;
}
