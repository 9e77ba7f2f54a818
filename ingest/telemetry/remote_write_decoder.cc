#include "ingest/telemetry/remote_write_decoder.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "absl/strings/str_cat.h"
#include "remote_write.pb.h"  // generated from ingest/telemetry/remote_write.proto
#include "snappy.h"

namespace fleetcap::telemetry {

namespace {

// Protocol buffers' wire format, read in place: WriteRequest is parsed
// without building messages (a sample would be a message of its own, and a
// request holds thousands). Fields fleetcap does not read (metadata,
// exemplars, histograms) are skipped by their wire type.
class Wire {
 public:
  explicit Wire(absl::string_view bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  bool done() const { return p_ == end_; }

  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const uint8_t byte = static_cast<uint8_t>(*p_++);
      *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }
  bool Tag(uint64_t* field, int* type) {
    uint64_t tag;
    if (!Varint(&tag) || (tag >> 3) == 0) return false;
    *field = tag >> 3;
    *type = static_cast<int>(tag & 7);
    return true;
  }
  bool Fixed64(uint64_t* v) {
    if (end_ - p_ < 8) return false;
    std::memcpy(v, p_, 8);  // little-endian, as x86 and ARM Linux are
    p_ += 8;
    return true;
  }
  bool Bytes(absl::string_view* v) {
    uint64_t n;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    *v = absl::string_view(p_, static_cast<size_t>(n));
    p_ += n;
    return true;
  }
  bool Skip(int type) {
    uint64_t ignored;
    absl::string_view bytes;
    switch (type) {
      case 0:
        return Varint(&ignored);
      case 1:
        return Fixed64(&ignored);
      case 2:
        return Bytes(&bytes);
      case 5:
        if (end_ - p_ < 4) return false;
        p_ += 4;
        return true;
      default:
        return false;  // groups are not part of remote_write
    }
  }

 private:
  const char* p_;
  const char* end_;
};

bool ParseLabel(absl::string_view bytes, std::string* name, std::string* value) {
  Wire w(bytes);
  while (!w.done()) {
    uint64_t field;
    int type;
    if (!w.Tag(&field, &type)) return false;
    absl::string_view text;
    if ((field == 1 || field == 2) && type == 2) {
      if (!w.Bytes(&text)) return false;
      (field == 1 ? name : value)->assign(text.data(), text.size());
    } else if (!w.Skip(type)) {
      return false;
    }
  }
  return true;
}

bool ParseSample(absl::string_view bytes, Point* point) {
  Wire w(bytes);
  uint64_t bits = 0, ts = 0;
  while (!w.done()) {
    uint64_t field;
    int type;
    if (!w.Tag(&field, &type)) return false;
    if (field == 1 && type == 1) {
      if (!w.Fixed64(&bits)) return false;
    } else if (field == 2 && type == 0) {
      if (!w.Varint(&ts)) return false;
    } else if (!w.Skip(type)) {
      return false;
    }
  }
  std::memcpy(&point->value, &bits, 8);
  point->ts_ms = static_cast<int64_t>(ts);
  return true;
}

bool ParseTimeSeries(absl::string_view bytes, Labels* labels, std::vector<Point>* points) {
  labels->clear();
  points->clear();
  Wire w(bytes);
  while (!w.done()) {
    uint64_t field;
    int type;
    if (!w.Tag(&field, &type)) return false;
    absl::string_view message;
    if ((field == 1 || field == 2) && type == 2) {
      if (!w.Bytes(&message)) return false;
      if (field == 1) {
        labels->emplace_back();
        if (!ParseLabel(message, &labels->back().first, &labels->back().second)) return false;
      } else {
        points->emplace_back();
        if (!ParseSample(message, &points->back())) return false;
      }
    } else if (!w.Skip(type)) {
      return false;
    }
  }
  return true;
}

}  // namespace

size_t MaxSnappyDecompressedBytes(size_t compressed_bytes) {
  constexpr size_t kCopyBytes = 3, kCopyLength = 64;
  return compressed_bytes / kCopyBytes * kCopyLength + compressed_bytes % kCopyBytes * kCopyLength / kCopyBytes;
}

absl::StatusOr<DecodedWrite> DecodeRemoteWrite(absl::string_view body, const Normaliser& normaliser,
                                               size_t max_decoded_bytes, DecodeBudget* budget) {
  size_t length = 0;
  if (!snappy::GetUncompressedLength(body.data(), body.size(), &length)) {
    return absl::InvalidArgumentError("remote_write body: not snappy block-compressed");
  }
  // Checked before snappy allocates (and zeroes) `length` bytes: the header
  // alone is the client's word, a few bytes can claim 4 GiB.
  if (length > MaxSnappyDecompressedBytes(body.size())) {
    return absl::InvalidArgumentError(absl::StrCat("remote_write body: its snappy header claims ", length,
                                                   " bytes, more than ", body.size(), " bytes of snappy can hold"));
  }
  if (length > max_decoded_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("remote_write body: decompresses to ", length, " bytes, over the limit of ", max_decoded_bytes));
  }
  std::optional<DecodeBudget::Lease> lease;  // held until `raw` is freed
  if (budget != nullptr) {
    auto taken = budget->Take(length);
    if (!taken.ok()) {
      return absl::Status(taken.status().code(), absl::StrCat("remote_write body: ", taken.status().message()));
    }
    lease.emplace(std::move(*taken));
  }
  std::string raw;
  if (!snappy::Uncompress(body.data(), body.size(), &raw)) {
    return absl::InvalidArgumentError("remote_write body: corrupt or truncated snappy data");
  }
  const auto not_a_request = [] {
    return absl::InvalidArgumentError("remote_write body: not a protobuf WriteRequest");
  };
  DecodedWrite out;
  Labels labels;
  std::vector<Point> points;
  Wire request(raw);
  while (!request.done()) {
    uint64_t field;
    int type;
    if (!request.Tag(&field, &type)) return not_a_request();
    if (field != 1 || type != 2) {  // metadata and anything newer: skipped
      if (!request.Skip(type)) return not_a_request();
      continue;
    }
    absl::string_view timeseries;
    if (!request.Bytes(&timeseries) || !ParseTimeSeries(timeseries, &labels, &points)) return not_a_request();
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
