#pragma once
// The window of the asset reads (GetAssets, ListDeviceHolds): [start, end)
// in whole hours, at most the chargeback's 400 days, as the chargeback they
// are read beside; INVALID_ARGUMENT naming the field otherwise.

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"

namespace fleetcap::api {

struct AssetWindow {
  absl::Time start, end;
};

// `start` and `end` as given (`has_start`/`has_end`: whether they were).
absl::StatusOr<AssetWindow> CheckAssetWindow(bool has_start, const google::protobuf::Timestamp& start, bool has_end,
                                             const google::protobuf::Timestamp& end);

// INVALID_ARGUMENT naming `field` for a filter longer than a name (253 bytes).
absl::Status CheckAssetFilter(const char* field, const std::string& value);

}  // namespace fleetcap::api
