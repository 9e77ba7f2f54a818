#pragma once
// The MIG profiles NVIDIA offers on the A100-40GB, A100-80GB and H100-80GB:
// the smaller slices a workload on one of them could move to (rightsizing,
// docs/insights.md). Pure data.

#include <cstdint>
#include <string>
#include <vector>

namespace fleetcap::insights {

struct MigProfile {
  std::string name;      // "1g.10gb", as nvidia-smi and the device plugin name it
  int compute_slices;    // of the GPU's 7
  int64_t memory_bytes;  // the gigabytes in the name, 10^9 bytes each
  // The milli-devices a slice holds: compute_slices / 7, rounded down, as
  // the ingest stores a MIG slice (a 3g profile is 428), so slices never add
  // up past one device.
  int64_t Milli() const { return compute_slices * int64_t{1000} / 7; }
};

// The profiles of `model`, smallest first, or none when the model is not one
// of the three: a name holding "A100" and "40GB", "A100" and "80GB", or
// "H100" and "80GB" (case aside; "NVIDIA A100-SXM4-80GB", "H100-SXM5-80GB").
// A bare "A100" or "H100" says not which, and gets none.
const std::vector<MigProfile>& MigProfilesOf(const std::string& model);

// The compute slices of `model`'s profiles whose slice is `milli`
// milli-devices (1g.10gb and 1g.20gb are both 142: one slice), or 0.
int MigSlicesOfMilli(const std::string& model, int64_t milli);

}  // namespace fleetcap::insights
