#include "common/exit.h"

#include <gtest/gtest.h>

#include <sstream>

namespace fleetcap {
namespace {

TEST(ExitCode, OkIsZeroAndSilent) {
  std::ostringstream err;
  EXPECT_EQ(ExitCode("tool", absl::OkStatus(), kExitFailed, err), kExitOk);
  EXPECT_EQ(err.str(), "");
}

TEST(ExitCode, FailureNamesWhoFailedOnOneLineAndAnswersTheCodeGiven) {
  std::ostringstream err;
  EXPECT_EQ(ExitCode("tool run", absl::UnavailableError("database away"), kExitFailed, err), kExitFailed);
  EXPECT_EQ(err.str(), "tool run: database away\n");
  EXPECT_EQ(ExitCode("tool", absl::InvalidArgumentError("--x: empty"), kExitUsage, err), kExitUsage);
}

TEST(ExitCode, CommandLineErrorExitsAsAUsageErrorWhereverItArose) {
  std::ostringstream err;
  auto status = CommandLineError(absl::InvalidArgumentError("--token-file: cannot read \"t\""));
  EXPECT_EQ(ExitCode("tool", status, kExitFailed, err), kExitUsage);
  EXPECT_EQ(err.str(), "tool: --token-file: cannot read \"t\"\n");
  EXPECT_TRUE(CommandLineError(absl::OkStatus()).ok());
}

}  // namespace
}  // namespace fleetcap
