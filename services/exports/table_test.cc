#include "services/exports/table.h"

#include <gtest/gtest.h>

namespace fleetcap::exports {
namespace {

TEST(Table, AlignsTextLeftAndNumbersRight) {
  Table table({"MODEL", "DEVICES"});
  table.AddRow({"T4", "808"});
  table.AddRow({"V100M16", "440"});
  table.AddRow({"A10", "2"});
  EXPECT_EQ(table.Render(),
            "MODEL    DEVICES\n"
            "T4           808\n"
            "V100M16      440\n"
            "A10            2\n");
}

TEST(Table, SignedChangesAreNumbers) {
  Table table({"STEP", "CHANGE"});
  table.AddRow({"started", "+1.00"});
  table.AddRow({"ended", "-17.00"});
  EXPECT_EQ(table.Render(),
            "STEP     CHANGE\n"
            "started   +1.00\n"
            "ended    -17.00\n");
}

}  // namespace
}  // namespace fleetcap::exports
