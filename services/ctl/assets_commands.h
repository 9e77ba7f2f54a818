#pragma once
// `fleetcapctl assets` and `fleetcapctl assets holds`: what the fleet's
// devices did over a window, per model, cluster, node or device (the Assets
// API, FleetService.GetAssets), and the pods that held one device
// (ListDeviceHolds); as a table, the API's proto3 JSON or CSV
// (services/exports/assets_format.h, docs/fleet.md "Assets").

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fleetcap/v1/fleet.grpc.pb.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

// `assets holds` first: fleetcapctl runs the first command whose words it finds.
std::vector<Command> AssetsCommands();

// The flags of `assets` as given.
struct AssetsFlags {
  std::string from, to, last;  // time_flags.h
  std::string group_by = "model";
  std::string cluster, model, node;
  int64_t limit = 200;
};

// The request `assets` sends at `now`: the window from --from and --to (--to
// now when not given) or --last, an instant relative to now cut to the start
// of its hour. A missing or malformed time, a --group-by other than model,
// cluster, node or device, or a --limit outside 1..1000 is INVALID_ARGUMENT
// naming the flag; the server checks the rest.
absl::StatusOr<v1::GetAssetsRequest> AssetsRequest(const AssetsFlags& flags, absl::Time now);

// The flags of `assets holds` as given.
struct DeviceHoldsFlags {
  std::string cluster, device;
  std::string from, to, last;
};

// The request `assets holds` sends at `now`: --cluster and --device are
// required, the window as for `assets`.
absl::StatusOr<v1::ListDeviceHoldsRequest> DeviceHoldsRequest(const DeviceHoldsFlags& flags, absl::Time now);

}  // namespace fleetcap::ctl
