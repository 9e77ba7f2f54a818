#pragma once
// Exact decimal text for figures kept as integers: money in micro-units and
// device time in milli-device-seconds. No floating point touches a figure
// that is printed, so what a person reads adds up to the micro-unit.

#include <cstdint>
#include <string>

namespace fleetcap::exports {

// The decimals `millionths` needs (its trailing zeros dropped), at least
// `min_decimals`: 1500000 -> 2, 1166667 -> 6, 0 -> 2.
int DecimalsNeeded(int64_t millionths, int min_decimals = 2);

// `millionths` / 10^6 with `decimals` decimals (0..6). Digits past
// `decimals` are dropped, so pass at least DecimalsNeeded(millionths).
std::string FixedPoint(int64_t millionths, int decimals);

// An amount in micro-units as a decimal with 2 to 6 decimals, exactly:
// 1500000 -> "1.50", 1166667 -> "1.166667", -20 -> "-0.00002".
std::string Money(int64_t micro);

// `millionths` rounded half away from zero to the hundredth, with two
// decimals: 1166667 -> "1.17", 14000000 -> "14.00", -5000 -> "-0.01". What a
// table shows a person; exports keep every digit (Money, DeviceHours).
std::string Hundredths(int64_t millionths);

// Whether Hundredths drops digits of `millionths`.
bool FinerThanHundredths(int64_t millionths);

// What a table for people says below itself when it rounded a figure to the
// hundredth (the CSV and JSON keep every figure exact).
inline constexpr char kRoundedToHundredthsNote[] =
    "figures rounded to the hundredth; --format csv or json gives them exactly\n";

// Milli-device-seconds in millionths of a device-hour, rounded half away
// from zero: a device-hour is 3,600,000 milli-device-seconds, so most
// values have no finite decimal. A millionth of a device-hour is 3.6
// milli-device-seconds.
int64_t DeviceHourMillionths(int64_t milli_seconds);

// DeviceHourMillionths as a decimal with 2 to 6 decimals: 1800000 -> "0.50".
std::string DeviceHours(int64_t milli_seconds);

}  // namespace fleetcap::exports
