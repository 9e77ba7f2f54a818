#pragma once
// fleetcap-telemetry-replay's work: the DCGM exporters of a cluster and the
// Prometheus that remote_writes their series, played from the store's holds
// and the published genai duty cycle. For every minute a pod held a device,
// one DCGM_FI_DEV_GPU_UTIL sample of that pod on that device, whose value
// comes from the genai series the pod plays; pushed to a remote_write URL in
// time order, in requests of whole minutes, waiting and resending on
// backpressure as Prometheus does.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "tests/support/device_holds.h"
#include "tests/support/http_get.h"
#include "tests/telemetry/duty_cycle_csv.h"

namespace fleetcap::testing {

constexpr int64_t kReplayMinuteMs = 60'000;

// The genai series pod `pod_uid` plays, of `series_count`: by a hash of the
// uid that does not change between runs or machines (FNV-1a).
size_t SeriesForPod(const std::string& pod_uid, size_t series_count);

// The utilisation, in percent of the device, that a pod holding `milli` of
// a device reports for minute `minute_ms` of a hold that began at
// `held_from_ms`: its series read one value a minute from the hold's first
// minute on, cyclically. A genai reading is a pod's duty cycle of the whole
// GPU it ran on; on a shared GPU, a pod's reading is taken as that duty cycle
// of its own share (a pod with 250 milli at 80% used 200 milli), so that
// what it used never exceeds what it held only because the GPU was shared.
double ReplayedUtilPercent(const DutyCycleSeries& series, int64_t held_from_ms, int64_t minute_ms, int milli);

// The remote_write series of one request: a DCGM exporter's labels for the
// pod on the device (UUID carries the device id the k8s ingest stored, so
// the device id the telemetry ingest builds from it is the same).
telemetry::Labels DcgmLabels(const DeviceHold& hold);

struct ReplayOptions {
  int64_t batch_samples = 20'000;               // a request ends at the first minute boundary past this
  absl::Duration patience = absl::Minutes(10);  // longest one request may keep being refused
  absl::Duration max_backoff = absl::Seconds(5);
};

struct ReplayReport {
  int64_t holds = 0;
  int64_t pods = 0;
  int64_t devices = 0;
  int64_t samples = 0;
  int64_t requests = 0;
  int64_t resent = 0;  // requests sent again after backpressure or a failure
};

// Sends one remote_write body (snappy-compressed protobuf), answers the HTTP result.
using RemoteWritePost = std::function<absl::StatusOr<HttpResult>(const std::string& body)>;

// Pushes the samples of `holds` (ordered by from_ms) through `post`.
// 2xx is done; 429, 5xx and a failed connection are waited out (doubling
// from 100 ms up to `max_backoff`) and resent, for `patience` at most; any
// other answer stops the replay with the status and body.
absl::StatusOr<ReplayReport> ReplayHolds(const std::vector<DeviceHold>& holds, const DutyCycleData& data,
                                         const RemoteWritePost& post, const Clock& clock,
                                         const ReplayOptions& options = {});

}  // namespace fleetcap::testing
