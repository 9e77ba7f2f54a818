#pragma once
// For the tests of flag parsers (like store/live_inventory_contract.h, a
// header for tests beside the code it serves): one case table of command
// lines, each refused with INVALID_ARGUMENT and a message that starts as given.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/flags.h"

namespace fleetcap::testing {

struct FlagErrorCase {
  std::vector<std::string> args;
  std::string message;  // the start of the message: some end in a library's own words
};

// An environment with nothing set, so that FLEETCAP_DB on the machine running
// the tests changes nothing.
inline Environment NoEnvironment() {
  return [](const std::string&) { return std::string(); };
}

inline absl::Status StatusOf(const absl::Status& status) { return status; }
template <typename T>
absl::Status StatusOf(const absl::StatusOr<T>& parsed) {
  return parsed.status();
}

// `parse(args)` answers an absl::Status or an absl::StatusOr.
template <typename Parse>
void ExpectFlagErrors(Parse parse, const std::vector<FlagErrorCase>& cases) {
  for (const FlagErrorCase& c : cases) {
    const absl::Status status = StatusOf(parse(c.args));
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(std::string(status.message()), ::testing::StartsWith(c.message));
  }
}

}  // namespace fleetcap::testing
