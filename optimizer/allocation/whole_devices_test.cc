#include "optimizer/allocation/whole_devices.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "optimizer/allocation/offline_solver.h"

namespace fleetcap::allocation {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Three leaf teams on one flavor of whole GPUs; SHARING is replaced.
constexpr const char* kPolicy = R"(version: 1
teams:
  - name: a
  - name: b
  - name: c
flavors:
  - name: gpu
    model: T4
    capacity: CAPACITY
    sharing: SHARING
)";

// team -> recommended milli-devices.
std::map<std::string, int64_t> Solve(const std::string& capacity, const std::string& sharing, const std::string& demand,
                                     const std::string& rules = "") {
  SolverInput in{"policy.yaml", absl::StrReplaceAll(kPolicy, {{"CAPACITY", capacity}, {"SHARING", sharing}}) + rules,
                 "demand.yaml", "demand:\n" + demand};
  auto solved = SolveOffline(in);
  EXPECT_TRUE(solved.ok()) << solved.status();
  std::map<std::string, int64_t> out;
  if (!solved.ok()) return out;
  for (const Recommendation& r : *solved) out[r.team] = r.recommended_milli;
  return out;
}

TEST(WholeDevices, AFractionalShareOfAWholeGpuFlavorIsRoundedUpWithinCapacity) {
  auto got = Solve("10", "whole", "  - {team: a, flavor: gpu, devices: 1.564}\n");
  EXPECT_EQ(got["a"], 2000);
}

TEST(WholeDevices, MigAndTimeSlicedFlavorsKeepMilliDevices) {
  EXPECT_EQ(Solve("10", "time-slicing", "  - {team: a, flavor: gpu, devices: 1.564}\n")["a"], 1564);
  EXPECT_EQ(Solve("10", "mig", "  - {team: a, flavor: gpu, devices: 1.564}\n")["a"], 1564);
}

TEST(WholeDevices, TheSumNeverExceedsTheCapacity) {
  // 10 GPUs among three teams that each want 5: 3.333 each exactly; the
  // spare device goes to the first name.
  auto got = Solve("10", "whole",
                   "  - {team: a, flavor: gpu, devices: 5}\n  - {team: b, flavor: gpu, devices: 5}\n"
                   "  - {team: c, flavor: gpu, devices: 5}\n");
  EXPECT_EQ(got["a"], 4000);
  EXPECT_EQ(got["b"], 3000);
  EXPECT_EQ(got["c"], 3000);
  // A capacity that is no whole number of devices hands out only whole ones.
  got = Solve("2.5", "whole", "  - {team: a, flavor: gpu, devices: 2}\n  - {team: b, flavor: gpu, devices: 2}\n");
  EXPECT_EQ(got["a"] + got["b"], 2000);
  EXPECT_EQ(got["a"], 1000);
}

TEST(WholeDevices, AGuaranteeKeepsItsFloorRoundedUpWhereCapacityAllows) {
  // c's guarantee 1.5 is in use: it keeps 2 devices although b's remainder
  // would otherwise come first by name.
  auto got = Solve("4", "whole", "  - {team: b, flavor: gpu, devices: 2.5}\n  - {team: c, flavor: gpu, devices: 1.5}\n",
                   "allocation:\n  - {team: c, flavor: gpu, guarantee: 1.5}\n");
  EXPECT_EQ(got["c"], 2000);
  EXPECT_EQ(got["b"], 2000);
}

TEST(WholeDevices, NeverAboveTheBorrowingLimit) {
  // g + b = 1.5 devices: 1 whole device, not 2.
  auto got = Solve("10", "whole", "  - {team: a, flavor: gpu, devices: 3}\n",
                   "allocation:\n  - {team: a, flavor: gpu, guarantee: 1, borrowing_limit: 0.5}\n");
  EXPECT_EQ(got["a"], 1000);
}

TEST(WholeDevices, ARoundedRecommendationSaysSo) {
  SolverInput in{"policy.yaml", absl::StrReplaceAll(kPolicy, {{"CAPACITY", "10"}, {"SHARING", "whole"}}), "demand.yaml",
                 "demand:\n  - {team: a, flavor: gpu, devices: 1.564}\n"};
  auto solved = SolveOffline(in);
  ASSERT_TRUE(solved.ok()) << solved.status();
  EXPECT_THAT((*solved)[0].explanation, HasSubstr("demand 1.564 met"));
  EXPECT_THAT((*solved)[0].explanation, HasSubstr("1.564 rounded to 2 whole devices"));
}

TEST(WholeDevices, WithheldCapacityIsNotHandedOut) {
  // 5 devices, 2.5 of them withheld under a lending limit: 2 for the rest.
  const std::string a = "a", b = "b";
  EXPECT_THAT(WholeDevices({{0, 0, std::nullopt, 2500, &a}, {2500, 0, std::nullopt, 0, &b}}, 5000),
              ElementsAre(0, 2000));
}

}  // namespace
}  // namespace fleetcap::allocation
