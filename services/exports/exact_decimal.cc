#include "services/exports/exact_decimal.h"

#include <algorithm>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"

namespace fleetcap::exports {
namespace {

constexpr uint64_t kMillion = 1000000;
constexpr int64_t kMilliSecondsPerDeviceHour = 1000 * 3600;

// |value| without overflow for INT64_MIN.
uint64_t Magnitude(int64_t value) { return value < 0 ? 0 - static_cast<uint64_t>(value) : value; }

}  // namespace

int DecimalsNeeded(int64_t millionths, int min_decimals) {
  uint64_t fraction = Magnitude(millionths) % kMillion;
  int decimals = 6;
  while (decimals > 0 && fraction % 10 == 0) {
    fraction /= 10;
    --decimals;
  }
  return std::max(decimals, min_decimals);
}

std::string FixedPoint(int64_t millionths, int decimals) {
  decimals = std::clamp(decimals, 0, 6);
  const uint64_t magnitude = Magnitude(millionths);
  std::string out = absl::StrCat(millionths < 0 ? "-" : "", magnitude / kMillion);
  if (decimals == 0) return out;
  std::string fraction = std::to_string(magnitude % kMillion);
  fraction.insert(0, 6 - fraction.size(), '0');
  return absl::StrCat(out, ".", fraction.substr(0, decimals));
}

std::string Money(int64_t micro) { return FixedPoint(micro, DecimalsNeeded(micro)); }

std::string Hundredths(int64_t millionths) {
  constexpr uint64_t kHundredth = kMillion / 100;
  const uint64_t rounded = (Magnitude(millionths) + kHundredth / 2) / kHundredth;
  std::string cents = std::to_string(rounded % 100);
  cents.insert(0, 2 - cents.size(), '0');
  return absl::StrCat(millionths < 0 && rounded > 0 ? "-" : "", rounded / 100, ".", cents);
}

bool FinerThanHundredths(int64_t millionths) { return millionths % (static_cast<int64_t>(kMillion) / 100) != 0; }

int64_t DeviceHourMillionths(int64_t milli_seconds) {
  // 128 bits: milli_seconds x 10^6 does not fit in 64.
  const absl::uint128 scaled = absl::uint128(Magnitude(milli_seconds)) * kMillion;
  const auto rounded = static_cast<int64_t>((scaled + kMilliSecondsPerDeviceHour / 2) / kMilliSecondsPerDeviceHour);
  return milli_seconds < 0 ? -rounded : rounded;
}

std::string DeviceHours(int64_t milli_seconds) { return Money(DeviceHourMillionths(milli_seconds)); }

}  // namespace fleetcap::exports
