#include "services/exports/csv.h"

#include <gtest/gtest.h>

namespace fleetcap::exports {
namespace {

TEST(Csv, PlainFieldsStayBare) { EXPECT_EQ(CsvRecord({"team", "1.50", ""}), "team,1.50,\r\n"); }

TEST(Csv, CommasQuotesAndLineBreaksAreQuotedWithQuotesDoubled) {
  EXPECT_EQ(CsvField("ads, \"east\""), "\"ads, \"\"east\"\"\"");
  EXPECT_EQ(CsvField("a\nb"), "\"a\nb\"");
  EXPECT_EQ(CsvField("a\rb"), "\"a\rb\"");
  EXPECT_EQ(CsvField("\""), "\"\"\"\"");
  EXPECT_EQ(CsvRecord({"x,y", "z"}), "\"x,y\",z\r\n");
}

}  // namespace
}  // namespace fleetcap::exports
