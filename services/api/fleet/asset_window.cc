#include "services/api/fleet/asset_window.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/request_time.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

absl::StatusOr<AssetWindow> CheckAssetWindow(bool has_start, const google::protobuf::Timestamp& start, bool has_end,
                                             const google::protobuf::Timestamp& end) {
  if (!has_start) return absl::InvalidArgumentError("start: missing; give the window's first hour");
  if (!has_end) return absl::InvalidArgumentError("end: missing; give the end of the window's last hour");
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("start", start));
  FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("end", end));
  AssetWindow window{FromProtoTimestamp(start), FromProtoTimestamp(end)};
  for (const auto& [field, t] : {std::pair<const char*, absl::Time>{"start", window.start}, {"end", window.end}}) {
    if (!store::IsWholeHour(t)) {
      return absl::InvalidArgumentError(absl::StrCat(field, ": ", FormatRfc3339(t), " is not a whole hour (UTC)"));
    }
  }
  if (window.end <= window.start) {
    return absl::InvalidArgumentError(
        absl::StrCat("end: ", FormatRfc3339(window.end), " is not after start ", FormatRfc3339(window.start)));
  }
  if (window.end - window.start > kMaxChargebackWindow) {
    return absl::InvalidArgumentError(absl::StrCat("end: ", FormatRfc3339(window.end), " is more than ",
                                                   kMaxChargebackWindow / absl::Hours(24),
                                                   " days after start; ask for several windows"));
  }
  return window;
}

absl::Status CheckAssetFilter(const char* field, const std::string& value) {
  if (value.size() <= 253) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", value.size(), " bytes, more than a name (253)"));
}

}  // namespace fleetcap::api
