#include "services/exports/chargeback_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "services/exports/chargeback_test_reports.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using namespace ::fleetcap::exports::testing;  // NOLINT: the shared reports

TEST(ParseChargebackFormat, KnowsTheFourFormatsAndNamesTheFlag) {
  EXPECT_EQ(*ParseChargebackFormat("table"), ChargebackFormat::kTable);
  EXPECT_EQ(*ParseChargebackFormat("JSON"), ChargebackFormat::kJson);
  EXPECT_EQ(*ParseChargebackFormat("csv"), ChargebackFormat::kCsv);
  EXPECT_EQ(*ParseChargebackFormat("focus"), ChargebackFormat::kFocus);
  EXPECT_THAT(ParseChargebackFormat("xlsx"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--format")));
}

TEST(ChargebackTable, RoundsToTheHundredthAndSaysWhereTheExactFiguresAre) {
  // Each cell is its exact figure rounded half away from zero: 4.666667 ->
  // 4.67, 9.333333 -> 9.33, the total's 14.000000 -> 14.00.
  EXPECT_EQ(
      ChargebackTable(HourRequest(), WorkedExample()),
      "chargeback from 2026-11-30T23:00:00Z to 2026-12-01T00:00:00Z in USD\n"
      "START                   TEAM  MODEL  HELD_DEVICE_H  USED_DEVICE_H  EFFICIENCY  DIRECT  IDLE  SHARED  TOTAL\n"
      "2026-11-30T23:00:00Z  speech  A100            0.50           0.00           -    3.50  1.17    0.00   4.67\n"
      "2026-11-30T23:00:00Z  vision  A100            1.00           0.67       66.7%    7.00  2.33    0.00   9.33\n"
      "TOTAL                                         1.50           0.67       66.7%   10.50  3.50    0.00  14.00\n"
      "figures rounded to the hundredth; --format csv, json or focus gives them exactly\n");
}

TEST(ChargebackTable, AZeroTotalIsPrintedAsZero) {
  EXPECT_EQ(
      ChargebackTable(HourRequest(), FreeOfCharge()),
      "chargeback from 2026-11-30T23:00:00Z to 2026-12-01T00:00:00Z in EUR\n"
      "START                   TEAM  MODEL  HELD_DEVICE_H  USED_DEVICE_H  EFFICIENCY  DIRECT  IDLE  SHARED  TOTAL\n"
      "2026-11-30T23:00:00Z  speech  A100            0.50           0.00           -    0.00  0.00    0.00   0.00\n"
      "TOTAL                                         0.50           0.00           -    0.00  0.00    0.00   0.00\n");
}

TEST(ChargebackTable, ShowsTheFieldsLinesHaveEvenWhenNotAskedFor) {
  v1::GetChargebackRequest request = HourRequest();
  request.clear_group_by();
  v1::ChargebackReport report = QuotedTeam();
  report.mutable_lines(0)->clear_model();
  EXPECT_EQ(
      ChargebackTable(request, report),
      "chargeback from 2026-11-30T23:00:00Z to 2026-12-01T00:00:00Z in USD\n"
      "START                        TEAM  HELD_DEVICE_H  USED_DEVICE_H  EFFICIENCY  DIRECT  IDLE  SHARED  TOTAL\n"
      "2026-11-30T23:00:00Z  ads, \"east\"           0.25           0.13       50.0%    1.75  0.00    0.00   1.75\n"
      "TOTAL                                       0.25           0.13       50.0%    1.75  0.00    0.00   1.75\n"
      "figures rounded to the hundredth; --format csv, json or focus gives them exactly\n");
}

TEST(ChargebackTable, MarksALineChargedAsHeldForWantOfTelemetry) {
  v1::ChargebackReport report = WorkedExample();
  report.mutable_lines(0)->set_no_telemetry(true);
  EXPECT_EQ(
      ChargebackTable(HourRequest(), report),
      "chargeback from 2026-11-30T23:00:00Z to 2026-12-01T00:00:00Z in USD\n"
      "START                   TEAM  MODEL  HELD_DEVICE_H  USED_DEVICE_H  EFFICIENCY  DIRECT  IDLE  SHARED  TOTAL\n"
      "2026-11-30T23:00:00Z  speech  A100            0.50           0.00           -    3.50  1.17    0.00   4.67  *\n"
      "2026-11-30T23:00:00Z  vision  A100            1.00           0.67       66.7%    7.00  2.33    0.00   9.33\n"
      "TOTAL                                         1.50           0.67       66.7%   10.50  3.50    0.00  14.00\n"
      "* some of the line's time had no telemetry and was charged as held\n"
      "figures rounded to the hundredth; --format csv, json or focus gives them exactly\n");
}

TEST(ChargebackTable, AnEmptyReportSaysSo) {
  EXPECT_EQ(ChargebackTable(HourRequest(), Empty()),
            "chargeback from 2026-11-30T23:00:00Z to 2026-12-01T00:00:00Z in USD\n"
            "no chargeback lines in this window\n");
}

TEST(ChargebackJson, IsTheProto3JsonOfTheReportWithEveryField) {
  // Field order is the protobuf library's; JSON readers do not depend on it.
  v1::ChargebackReport report = WorkedExample();
  report.mutable_lines()->DeleteSubrange(1, 1);
  EXPECT_EQ(ChargebackJson(report),
            "{\n"
            " \"lines\": [\n"
            "  {\n"
            "   \"team\": \"speech\",\n"
            "   \"cluster\": \"\",\n"
            "   \"namespace\": \"\",\n"
            "   \"workload\": \"\",\n"
            "   \"model\": \"A100\",\n"
            "   \"lineKind\": \"\",\n"
            "   \"heldMilliSeconds\": \"1800000\",\n"
            "   \"usedMilliSeconds\": \"0\",\n"
            "   \"directCostMicro\": \"3500000\",\n"
            "   \"idleCostMicro\": \"1166667\",\n"
            "   \"sharedCostMicro\": \"0\",\n"
            "   \"totalCostMicro\": \"4666667\",\n"
            "   \"efficiency\": 0,\n"
            "   \"noTelemetry\": false,\n"
            "   \"observedMilliSeconds\": \"0\",\n"
            "   \"start\": \"2026-11-30T23:00:00Z\"\n"
            "  }\n"
            " ],\n"
            " \"totalCostMicro\": \"14000000\",\n"
            " \"currency\": \"USD\"\n"
            "}\n");
}

TEST(ChargebackJson, AnEmptyReportHasNoLines) {
  EXPECT_EQ(ChargebackJson(Empty()),
            "{\n"
            " \"lines\": [],\n"
            " \"totalCostMicro\": \"0\",\n"
            " \"currency\": \"USD\"\n"
            "}\n");
}

constexpr char kCsvHeader[] =
    "start,team,cluster,namespace,workload,model,line_kind,held_device_hours,used_device_hours,efficiency,"
    "no_telemetry,direct_cost,idle_cost,shared_cost,total_cost,currency\r\n";

TEST(ChargebackCsv, OneRowPerLineWithExactMoney) {
  EXPECT_EQ(ChargebackCsv(WorkedExample()),
            std::string(kCsvHeader) +
                "2026-11-30T23:00:00Z,speech,,,,A100,,0.50,0.00,0.0000,false,3.50,1.166667,0.00,4.666667,USD\r\n"
                "2026-11-30T23:00:00Z,vision,,,,A100,,1.00,0.666667,0.6667,false,7.00,2.333333,0.00,9.333333,USD\r\n");
}

TEST(ChargebackCsv, AZeroTotalIsZero) {
  EXPECT_EQ(ChargebackCsv(FreeOfCharge()),
            std::string(kCsvHeader) +
                "2026-11-30T23:00:00Z,speech,,,,A100,,0.50,0.00,0.0000,false,0.00,0.00,0.00,0.00,EUR\r\n");
}

TEST(ChargebackCsv, QuotesANameWithACommaAndQuotes) {
  EXPECT_EQ(
      ChargebackCsv(QuotedTeam()),
      std::string(kCsvHeader) +
          "2026-11-30T23:00:00Z,\"ads, \"\"east\"\"\",,,,A100,,0.25,0.125,0.5000,false,1.75,0.00,0.00,1.75,USD\r\n");
}

TEST(ChargebackCsv, SaysWhichLinesWereChargedAsHeldForWantOfTelemetry) {
  v1::ChargebackReport report = WorkedExample();
  report.mutable_lines(1)->set_no_telemetry(true);
  EXPECT_EQ(ChargebackCsv(report),
            std::string(kCsvHeader) +
                "2026-11-30T23:00:00Z,speech,,,,A100,,0.50,0.00,0.0000,false,3.50,1.166667,0.00,4.666667,USD\r\n"
                "2026-11-30T23:00:00Z,vision,,,,A100,,1.00,0.666667,0.6667,true,7.00,2.333333,0.00,9.333333,USD\r\n");
}

TEST(ChargebackCsv, AnEmptyReportIsTheHeader) { EXPECT_EQ(ChargebackCsv(Empty()), kCsvHeader); }

TEST(RenderChargeback, WritesTheFormatAskedFor) {
  EXPECT_EQ(RenderChargeback(HourRequest(), WorkedExample(), ChargebackFormat::kTable),
            ChargebackTable(HourRequest(), WorkedExample()));
  EXPECT_EQ(RenderChargeback(HourRequest(), WorkedExample(), ChargebackFormat::kJson), ChargebackJson(WorkedExample()));
  EXPECT_EQ(RenderChargeback(HourRequest(), WorkedExample(), ChargebackFormat::kCsv), ChargebackCsv(WorkedExample()));
  EXPECT_THAT(RenderChargeback(HourRequest(), WorkedExample(), ChargebackFormat::kFocus),
              HasSubstr("BilledCost,BillingAccountId,"));
}

}  // namespace
}  // namespace fleetcap::exports
