#pragma once
// Kubernetes resource quantities ("2", "500m", "1Gi", "1.5", "1e3") as the
// API serialises them, read into integer milli-units the way the API server
// rounds them: up, to the next milli.

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fleetcap::k8s {

// INVALID_ARGUMENT (quoting the text) for anything that is not a quantity,
// or whose milli-units do not fit in int64.
absl::StatusOr<int64_t> ParseQuantityMilli(absl::string_view text);

}  // namespace fleetcap::k8s
