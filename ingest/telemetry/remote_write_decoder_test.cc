#include "ingest/telemetry/remote_write_decoder.h"

#include <gtest/gtest.h>

#include <cmath>

#include "remote_write.pb.h"  // generated from ingest/telemetry/remote_write.proto
#include "snappy.h"

namespace fleetcap::telemetry {
namespace {

std::vector<RawSeries> Sample() {
  return {{{{"__name__", "DCGM_FI_DEV_GPU_UTIL"}, {"UUID", "GPU-1"}, {"Hostname", "n1"}},
           {{2000, 40}, {1000, 20}, {3000, std::nan("")}}},
          {{{"__name__", "up"}, {"job", "dcgm"}}, {{1000, 1}}},
          {{{"__name__", "DCGM_FI_DEV_POWER_USAGE"}, {"UUID", "GPU-1"}}, {{1000, 9223372036854775792.0}}}};
}

TEST(DecodeRemoteWrite, RoundTripsAndNormalises) {
  Normaliser n(&DefaultMetricMapping());
  auto decoded = DecodeRemoteWrite(EncodeRemoteWrite(Sample()), n, 1 << 20);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
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
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->samples_received, 0);
  EXPECT_TRUE(decoded->series.empty());
}

TEST(DecodeRemoteWrite, GarbageTruncatedAndOversizedAreErrors) {
  Normaliser n(&DefaultMetricMapping());
  const std::string good = EncodeRemoteWrite(Sample());
  auto garbage = DecodeRemoteWrite("this is not snappy at all \xff\xff\xff\xff\xff", n, 1 << 20);
  EXPECT_EQ(garbage.status().code(), absl::StatusCode::kInvalidArgument) << garbage.status();
  auto truncated = DecodeRemoteWrite(good.substr(0, good.size() / 2), n, 1 << 20);
  EXPECT_EQ(truncated.status().code(), absl::StatusCode::kInvalidArgument) << truncated.status();
  // Valid snappy around bytes that are not a WriteRequest.
  std::string not_proto, raw = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";
  snappy::Compress(raw.data(), raw.size(), &not_proto);
  auto bad_proto = DecodeRemoteWrite(not_proto, n, 1 << 20);
  EXPECT_EQ(bad_proto.status().code(), absl::StatusCode::kInvalidArgument) << bad_proto.status();
  auto too_big = DecodeRemoteWrite(good, n, 10);
  EXPECT_EQ(too_big.status().code(), absl::StatusCode::kResourceExhausted) << too_big.status();
  EXPECT_EQ(DecodeRemoteWrite("", n, 1 << 20).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::telemetry
