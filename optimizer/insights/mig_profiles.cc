#include "optimizer/insights/mig_profiles.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace fleetcap::insights {
namespace {

constexpr int64_t kGB = 1000 * 1000 * 1000;

// From NVIDIA's Multi-Instance GPU User Guide, "Supported MIG Profiles"
// (docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html):
// each profile's fraction of the SMs (its slices of 7) and its name's memory.
// The memory a profile really has (`nvidia-smi mig -lgip`, e.g. 4.75 GiB for
// 1g.5gb, 9.75 GiB for the H100's 1g.10gb) is a little above the name's
// gigabytes, so the name's figure never promises memory the slice lacks.
// The "+me" variants (media extensions) have the compute and memory of
// their 1g profile and are left out: they are never a smaller slice.
const std::vector<MigProfile> kA100_40GB = {
    {"1g.5gb", 1, 5 * kGB},   {"1g.10gb", 1, 10 * kGB}, {"2g.10gb", 2, 10 * kGB},
    {"3g.20gb", 3, 20 * kGB}, {"4g.20gb", 4, 20 * kGB}, {"7g.40gb", 7, 40 * kGB},
};
// A100-80GB and H100-80GB: the same slices with twice the memory
// ("for A100-SXM4-80GB, the profile names will change according to the
// memory proportion", the guide; its H100 table lists the same names).
const std::vector<MigProfile> k80GB = {
    {"1g.10gb", 1, 10 * kGB}, {"1g.20gb", 1, 20 * kGB}, {"2g.20gb", 2, 20 * kGB},
    {"3g.40gb", 3, 40 * kGB}, {"4g.40gb", 4, 40 * kGB}, {"7g.80gb", 7, 80 * kGB},
};
const std::vector<MigProfile> kNone;

}  // namespace

const std::vector<MigProfile>& MigProfilesOf(const std::string& model) {
  const std::string m = absl::AsciiStrToUpper(model);
  if (absl::StrContains(m, "A100") && absl::StrContains(m, "40GB")) return kA100_40GB;
  if ((absl::StrContains(m, "A100") || absl::StrContains(m, "H100")) && absl::StrContains(m, "80GB")) return k80GB;
  return kNone;
}

int MigSlicesOfMilli(const std::string& model, int64_t milli) {
  for (const MigProfile& p : MigProfilesOf(model)) {
    if (p.Milli() == milli) return p.compute_slices;
  }
  return 0;
}

}  // namespace fleetcap::insights
