#include "ingest/openb/openb_team.h"

#include <gtest/gtest.h>

namespace fleetcap::openb {
namespace {

TEST(TeamForOpenbPod, SerialModuloTwelveAsTwoDigits) {
  EXPECT_EQ(TeamForOpenbPod("openb-pod-0000").team, "team-00");
  EXPECT_EQ(TeamForOpenbPod("openb-pod-0007").team, "team-07");
  EXPECT_EQ(TeamForOpenbPod("openb-pod-0011").team, "team-11");
  EXPECT_EQ(TeamForOpenbPod("openb-pod-0012").team, "team-00");
  EXPECT_EQ(TeamForOpenbPod("openb-pod-8151").team, "team-03");  // 8151 = 679*12 + 3
  EXPECT_EQ(TeamForOpenbPod("openb-pod-0025").namespace_name, "team-01");
}

TEST(TeamForOpenbPod, LongSerialsDoNotOverflow) {
  // 10^30 mod 12 = 4, since 10^k mod 12 = 4 for every k >= 2.
  EXPECT_EQ(TeamForOpenbPod("openb-pod-1000000000000000000000000000000").team, "team-04");
}

TEST(TeamForOpenbPod, OtherNamesAreUnassignedInTheDefaultNamespace) {
  for (const char* name :
       {"", "openb-pod-", "openb-pod-12a", "openb-pod--1", "other-0001", "openb-node-0001", "OPENB-POD-0001"}) {
    OpenbTeam team = TeamForOpenbPod(name);
    EXPECT_EQ(team.team, "unassigned") << name;
    EXPECT_EQ(team.namespace_name, "default") << name;
  }
}

}  // namespace
}  // namespace fleetcap::openb
