#include "ingest/telemetry/remote_write_decoder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "google/protobuf/stubs/logging.h"
#include "remote_write.pb.h"  // generated from ingest/telemetry/remote_write.proto
#include "snappy.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::telemetry {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;

std::vector<RawSeries> Sample() {
  return {{{{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"UUID", "GPU-1"}, {"Hostname", "n1"}},
           {{2000, 40}, {1000, 20}, {3000, std::nan("")}}},
          {{{"__name__", "up"}, {"job", "dcgm"}}, {{1000, 1}}},
          {{{"__name__", "DCGM_FI_DEV_POWER_USAGE"}, {"UUID", "GPU-1"}}, {{1000, 9223372036854775792.0}}}};
}

TEST(DecodeRemoteWrite, RoundTripsAndNormalises) {
  Normaliser n(&DefaultMetricMapping());
  auto decoded = DecodeRemoteWrite(EncodeRemoteWrite(Sample()), n, 1 << 20);
  ASSERT_THAT(decoded, IsOk());
  EXPECT_EQ(decoded->samples_received, 5);
  EXPECT_EQ(decoded->samples_usable, 2);
  ASSERT_EQ(decoded->series.size(), 1u);
  EXPECT_EQ(decoded->series[0].key.device_id, "GPU-1");
  // Out of order within the request is kept as sent; the writer orders it.
  EXPECT_EQ(decoded->series[0].points[0].ts_ms, 2000);
  EXPECT_DOUBLE_EQ(decoded->series[0].points[0].value, 0.4);
  EXPECT_EQ(decoded->drops.Get(DropReason::kNan), 1);
  EXPECT_EQ(decoded->drops.Get(DropReason::kUnknownMetric), 1);
  EXPECT_EQ(decoded->drops.Get(DropReason::kSentinel), 1);
}

TEST(DecodeRemoteWrite, MetadataIsIgnored) {
  prompb::WriteRequest request;
  auto* md = request.add_metadata();
  md->set_metric_family_name("DCGM_FI_DEV_GPU_UTIL");
  md->set_help("GPU utilization (in %).");
  std::string raw = request.SerializeAsString(), body;
  snappy::Compress(raw.data(), raw.size(), &body);
  Normaliser n(&DefaultMetricMapping());
  auto decoded = DecodeRemoteWrite(body, n, 1 << 20);
  ASSERT_THAT(decoded, IsOk());
  EXPECT_EQ(decoded->samples_received, 0);
  EXPECT_TRUE(decoded->series.empty());
}

TEST(DecodeRemoteWrite, GarbageTruncatedAndOversizedAreErrors) {
  Normaliser n(&DefaultMetricMapping());
  const std::string good = EncodeRemoteWrite(Sample());
  auto garbage = DecodeRemoteWrite("this is not snappy at all \xff\xff\xff\xff\xff", n, 1 << 20);
  EXPECT_THAT(garbage, StatusIs(absl::StatusCode::kInvalidArgument));
  auto truncated = DecodeRemoteWrite(good.substr(0, good.size() / 2), n, 1 << 20);
  EXPECT_THAT(truncated, StatusIs(absl::StatusCode::kInvalidArgument));
  // Valid snappy around bytes that are not a WriteRequest.
  std::string not_proto, raw = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";
  snappy::Compress(raw.data(), raw.size(), &not_proto);
  auto bad_proto = DecodeRemoteWrite(not_proto, n, 1 << 20);
  EXPECT_THAT(bad_proto, StatusIs(absl::StatusCode::kInvalidArgument));
  auto too_big = DecodeRemoteWrite(good, n, 10);
  EXPECT_THAT(too_big, StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_THAT(DecodeRemoteWrite("", n, 1 << 20), StatusIs(absl::StatusCode::kInvalidArgument));
}

// A snappy header: the decompressed length as a little-endian base-128 varint.
std::string SnappyHeader(uint64_t length) {
  std::string out;
  for (; length >= 0x80; length >>= 7) out += static_cast<char>((length & 0x7f) | 0x80);
  return out + static_cast<char>(length);
}

// The densest stream the format allows: one literal byte, then copies of 64
// bytes at offset 1, each a 3-byte element.
std::string DensestSnappy(int copies) {
  std::string body = SnappyHeader(1 + 64 * static_cast<uint64_t>(copies)) + std::string(
                                                                                "\x00"
                                                                                "a",
                                                                                2);
  for (int i = 0; i < copies; ++i) body += std::string("\xfe\x01\x00", 3);
  return body;
}

TEST(MaxSnappyDecompressedBytes, HoldsTheDensestStreamsSnappyAccepts) {
  for (int copies : {1, 2, 3, 1000, 100'000}) {
    const std::string dense = DensestSnappy(copies);
    std::string raw;
    ASSERT_TRUE(snappy::Uncompress(dense.data(), dense.size(), &raw)) << copies;
    EXPECT_EQ(raw, std::string(1 + 64 * static_cast<size_t>(copies), 'a'));
    EXPECT_LE(raw.size(), MaxSnappyDecompressedBytes(dense.size())) << copies;
  }
  for (size_t size : {size_t{1}, size_t{1000}, size_t{8} << 20}) {
    const std::string zeros(size, '\0');
    std::string compressed;
    snappy::Compress(zeros.data(), zeros.size(), &compressed);
    EXPECT_LE(size, MaxSnappyDecompressedBytes(compressed.size())) << size;
  }
  // The bound is the format's: a copy of 64 from 3 bytes, and no more.
  EXPECT_EQ(MaxSnappyDecompressedBytes(3), 64u);
  EXPECT_EQ(MaxSnappyDecompressedBytes(3'000'000), 64'000'000u);
}

// A few bytes claiming hundreds of MiB are refused from the header, whatever
// the size limit, instead of snappy allocating and zeroing the claim first.
TEST(DecodeRemoteWrite, AHeaderClaimingMoreThanTheBodyCanHoldIsRefused) {
  Normaliser n(&DefaultMetricMapping());
  const std::string six_bytes = SnappyHeader(uint64_t{255} << 20) + std::string("\x00\x00", 2);
  ASSERT_EQ(six_bytes.size(), 6u);
  EXPECT_THAT(DecodeRemoteWrite(six_bytes, n, size_t{1} << 30),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("more than 6 bytes of snappy")));
  // The densest elements under a header claiming one byte more than the
  // bound allows for the whole body (both headers are 2 bytes).
  const std::string elements = DensestSnappy(10).substr(SnappyHeader(641).size());
  const std::string claims_one_more = SnappyHeader(MaxSnappyDecompressedBytes(2 + elements.size()) + 1) + elements;
  ASSERT_EQ(claims_one_more.size(), 2 + elements.size());
  EXPECT_THAT(DecodeRemoteWrite(claims_one_more, n, size_t{1} << 30),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("snappy header claims")));
}

TEST(DecodeRemoteWrite, TheDecompressionBudgetIsTakenWhileDecodingAndGivenBack) {
  Normaliser n(&DefaultMetricMapping());
  const std::string good = EncodeRemoteWrite(Sample());
  size_t length = 0;
  ASSERT_TRUE(snappy::GetUncompressedLength(good.data(), good.size(), &length));
  DecodeBudget budget(length + 10);
  {
    auto held = budget.Take(11);  // another request in flight
    ASSERT_THAT(held, IsOk());
    EXPECT_THAT(DecodeRemoteWrite(good, n, 1 << 20, &budget), StatusIs(absl::StatusCode::kUnavailable));
  }
  EXPECT_THAT(DecodeRemoteWrite(good, n, 1 << 20, &budget), IsOk());
  EXPECT_EQ(budget.in_use(), 0u);
  DecodeBudget small(length - 1);
  EXPECT_THAT(DecodeRemoteWrite(good, n, 1 << 20, &small), StatusIs(absl::StatusCode::kResourceExhausted));
}

// The reference: the same request parsed by the generated protobuf code.
absl::StatusOr<DecodedWrite> DecodeWithProtobuf(const std::string& raw, const Normaliser& normaliser) {
  prompb::WriteRequest request;
  if (!request.ParseFromString(raw)) return absl::InvalidArgumentError("not a WriteRequest");
  DecodedWrite out;
  for (const auto& ts : request.timeseries()) {
    Labels labels;
    for (const auto& l : ts.labels()) labels.emplace_back(l.name(), l.value());
    std::vector<Point> points;
    for (const auto& p : ts.samples()) points.push_back({p.timestamp(), p.value()});
    out.samples_received += static_cast<int64_t>(points.size());
    auto series = normaliser.Normalise(labels, points, &out.drops);
    if (series && !series->points.empty()) {
      out.samples_usable += static_cast<int64_t>(series->points.size());
      out.series.push_back(std::move(*series));
    }
  }
  return out;
}

void ExpectSame(const DecodedWrite& a, const DecodedWrite& b) {
  EXPECT_EQ(a.samples_received, b.samples_received);
  EXPECT_EQ(a.samples_usable, b.samples_usable);
  EXPECT_EQ(a.drops.by_reason, b.drops.by_reason);
  ASSERT_EQ(a.series.size(), b.series.size());
  for (size_t i = 0; i < a.series.size(); ++i) {
    EXPECT_EQ(a.series[i].key.device_id, b.series[i].key.device_id);
    EXPECT_EQ(a.series[i].key.pod, b.series[i].key.pod);
    EXPECT_EQ(a.series[i].field, b.series[i].field);
    ASSERT_EQ(a.series[i].points.size(), b.series[i].points.size());
    for (size_t j = 0; j < a.series[i].points.size(); ++j) {
      EXPECT_EQ(a.series[i].points[j].ts_ms, b.series[i].points[j].ts_ms);
      EXPECT_EQ(a.series[i].points[j].value, b.series[i].points[j].value);
    }
  }
}

std::string Compress(const std::string& raw) {
  std::string body;
  snappy::Compress(raw.data(), raw.size(), &body);
  return body;
}

// Random requests with what Prometheus may send beside samples (metadata,
// exemplars, negative timestamps, every metric of the default mapping):
// the in-place parser agrees with the generated code on every one.
TEST(DecodeRemoteWrite, AgreesWithTheGeneratedParser) {
  const char* metrics[] = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                           "duty_cycle",           "gpu_gfx_activity",    "up"};
  std::mt19937_64 rng(11);
  Normaliser n(&DefaultMetricMapping());
  for (int round = 0; round < 200; ++round) {
    prompb::WriteRequest request;
    const int series = static_cast<int>(rng() % 6);
    for (int s = 0; s < series; ++s) {
      auto* ts = request.add_timeseries();
      auto label = [&](const std::string& k, const std::string& v) {
        auto* l = ts->add_labels();
        l->set_name(k);
        l->set_value(v);
      };
      label("Hostname", "node-" + std::to_string(rng() % 3));
      label("UUID", "GPU-" + std::to_string(rng() % 4));
      label("__name__", metrics[rng() % 6]);
      if (rng() % 2) label("pod", "p" + std::to_string(rng() % 2));
      const int samples = static_cast<int>(rng() % 50);
      for (int i = 0; i < samples; ++i) {
        auto* sample = ts->add_samples();
        sample->set_timestamp(static_cast<int64_t>(rng() % 2000000000000) - 1000);
        sample->set_value(rng() % 10 == 0 ? -1.0 : static_cast<double>(rng() % 1000) / 7);
      }
    }
    if (rng() % 3 == 0) request.add_metadata()->set_help("help text");
    std::string raw = request.SerializeAsString();
    if (rng() % 4 == 0) raw += std::string("\x1a\x02\x08\x01", 4);  // a field-3 message (metadata) after the series
    if (rng() % 4 == 0 && series > 0) raw += std::string("\x20\x05", 2);  // an unknown varint field 4
    auto ours = DecodeRemoteWrite(Compress(raw), n, 1 << 24);
    auto reference = DecodeWithProtobuf(raw, n);
    ASSERT_THAT(ours, IsOk());
    ASSERT_THAT(reference, IsOk()) << round;
    ExpectSame(*ours, *reference);
  }
}

// Damaged requests: whatever the generated code accepts, the in-place
// parser accepts alike; nothing reads past the buffer (ASan runs this).
TEST(DecodeRemoteWrite, DamagedRequestsNeverCrashAndMatchWhereProtobufAccepts) {
  Normaliser n(&DefaultMetricMapping());
  const std::string body = EncodeRemoteWrite(Sample());
  std::string raw;
  ASSERT_TRUE(snappy::Uncompress(body.data(), body.size(), &raw));
  std::mt19937_64 rng(5);
  google::protobuf::LogSilencer quiet;  // the generated code logs each invalid UTF-8 string
  int rejected = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string damaged = raw;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) damaged[rng() % damaged.size()] = static_cast<char>(rng());
    if (rng() % 3 == 0) damaged.resize(rng() % damaged.size());
    auto ours = DecodeRemoteWrite(Compress(damaged), n, 1 << 24);
    auto reference = DecodeWithProtobuf(damaged, n);
    if (!ours.ok()) {
      ++rejected;
      EXPECT_THAT(ours, StatusIs(absl::StatusCode::kInvalidArgument));
    }
    if (reference.ok() && ours.ok()) ExpectSame(*ours, *reference);
  }
  EXPECT_GT(rejected, 100);
}

}  // namespace
}  // namespace fleetcap::telemetry
