#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "optimizer/allocation/demand_document.h"

namespace fleetcap::allocation {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

std::string Errors(const ParsedDemand& parsed) { return policy::FormatPolicyErrors("demand.yaml", parsed.errors); }

TEST(ParseDemand, ReadsDemandAndCapacityInMilliDevices) {
  const ParsedDemand parsed = ParseDemand(
      "capacity:\n"
      "  - {flavor: a100, devices: 64}\n"
      "demand:\n"
      "  - {team: lab-a, flavor: a100, devices: 12.5}\n"
      "  - {team: lab-b, flavor: a100, devices: 0.001}\n");
  ASSERT_TRUE(parsed.ok()) << Errors(parsed);
  EXPECT_THAT(parsed.document.demand,
              ElementsAre(Field(&DeclaredDemand::milli, 12500), Field(&DeclaredDemand::milli, 1)));
  EXPECT_EQ(parsed.document.demand[0].team, "lab-a");
  EXPECT_EQ(parsed.document.demand[1].line, 5);
  ASSERT_EQ(parsed.document.capacity.size(), 1u);
  EXPECT_EQ(parsed.document.capacity[0].milli, 64000);
}

TEST(ParseDemand, EveryProblemNamesItsLineAndField) {
  const ParsedDemand parsed = ParseDemand(
      "demand:\n"
      "  - {team: a, flavor: gpu, devices: 1, devcies: 2}\n"
      "  - {team: a, flavor: gpu, devices: -3}\n"
      "  - {team: b, flavor: gpu, devices: 1.0005}\n"
      "  - {team: 'x y', flavor: gpu, devices: 1}\n"
      "  - {team: a, flavor: gpu, devices: 2}\n"
      "  - {team: c, flavor: gpu}\n"
      "extra: 1\n");
  const std::string errors = Errors(parsed);
  EXPECT_THAT(errors, HasSubstr("demand.yaml:2:"));
  EXPECT_THAT(errors, HasSubstr("demand[0].devcies: unknown key \"devcies\" (expected one of team, flavor, devices)"));
  EXPECT_THAT(errors, HasSubstr("demand.yaml:3:"));
  EXPECT_THAT(errors, HasSubstr("demand[1].devices: -3 is out of range"));
  EXPECT_THAT(errors, HasSubstr("demand[2].devices:"));
  EXPECT_THAT(errors, HasSubstr("demand[3].team: \"x y\" is not a name"));
  EXPECT_THAT(errors, HasSubstr("demand[4]: team a on flavor gpu is already given at line 2"));
  EXPECT_THAT(errors, HasSubstr("demand[5].devices: missing (required)"));
  EXPECT_THAT(errors, HasSubstr("extra: unknown key \"extra\""));
}

TEST(ParseDemand, RefusesWhatIsNotADemandDocument) {
  EXPECT_THAT(Errors(ParseDemand("capacity: []\n")), HasSubstr("demand: missing (required"));
  EXPECT_THAT(Errors(ParseDemand("demand: {team: a}\n")), HasSubstr("demand: expected a list"));
  EXPECT_THAT(Errors(ParseDemand("demand: [\n")), HasSubstr("not valid YAML"));
  EXPECT_THAT(Errors(ParseDemand("- 1\n")), HasSubstr("expected a mapping"));
  EXPECT_THAT(Errors(ParseDemand(std::string("demand: []\n\0", 12))), HasSubstr("not valid UTF-8 text"));
}

}  // namespace
}  // namespace fleetcap::allocation
