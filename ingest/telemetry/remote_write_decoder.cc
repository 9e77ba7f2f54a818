#include "ingest/telemetry/remote_write_decoder.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "google/protobuf/arena.h"
#include "remote_write.pb.h"  // generated from ingest/telemetry/remote_write.proto
#include "snappy.h"

namespace fleetcap::telemetry {

absl::StatusOr<DecodedWrite> DecodeRemoteWrite(absl::string_view body, const Normaliser& normaliser,
                                               size_t max_decoded_bytes) {
  size_t length = 0;
  if (!snappy::GetUncompressedLength(body.data(), body.size(), &length)) {
    return absl::InvalidArgumentError("remote_write body: not snappy block-compressed");
  }
  if (length > max_decoded_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat("remote_write body: decompresses to ", length,
                                                     " bytes, over the limit of ", max_decoded_bytes));
  }
  std::string raw;
  if (!snappy::Uncompress(body.data(), body.size(), &raw)) {
    return absl::InvalidArgumentError("remote_write body: corrupt or truncated snappy data");
  }
  // One arena per request: a sample is a message of its own, and a
  // request holds thousands.
  google::protobuf::Arena arena;
  auto& request = *google::protobuf::Arena::CreateMessage<prompb::WriteRequest>(&arena);
  if (!request.ParseFromString(raw)) {
    return absl::InvalidArgumentError("remote_write body: not a protobuf WriteRequest");
  }
  DecodedWrite out;
  out.series.reserve(static_cast<size_t>(request.timeseries_size()));
  Labels labels;
  std::vector<Point> points;
  for (const auto& ts : request.timeseries()) {
    labels.clear();
    for (const auto& l : ts.labels()) labels.emplace_back(l.name(), l.value());
    points.clear();
    for (const auto& s : ts.samples()) points.push_back({s.timestamp(), s.value()});
    out.samples_received += static_cast<int64_t>(points.size());
    auto series = normaliser.Normalise(labels, points, &out.drops);
    if (series && !series->points.empty()) {
      out.samples_usable += static_cast<int64_t>(series->points.size());
      out.series.push_back(std::move(*series));
    }
  }
  return out;
}

std::string EncodeRemoteWrite(const std::vector<RawSeries>& series) {
  prompb::WriteRequest request;
  for (const auto& s : series) {
    auto* ts = request.add_timeseries();
    Labels sorted = s.labels;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& [name, value] : sorted) {
      auto* label = ts->add_labels();
      label->set_name(name);
      label->set_value(value);
    }
    for (const Point& p : s.points) {
      auto* sample = ts->add_samples();
      sample->set_value(p.value);
      sample->set_timestamp(p.ts_ms);
    }
  }
  std::string raw = request.SerializeAsString();
  std::string compressed;
  snappy::Compress(raw.data(), raw.size(), &compressed);
  return compressed;
}

}  // namespace fleetcap::telemetry
