#include "services/exports/focus_format.h"

#include <gtest/gtest.h>

#include <map>

#include "absl/strings/str_split.h"
#include "common/time_util.h"
#include "services/exports/chargeback_test_reports.h"

namespace fleetcap::exports {
namespace {

using namespace ::fleetcap::exports::testing;  // NOLINT: the shared reports

constexpr char kFocusHeader[] =
    "BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,BillingPeriodEnd,BillingPeriodStart,"
    "ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodEnd,ChargePeriodStart,ConsumedQuantity,ConsumedUnit,"
    "ContractedCost,EffectiveCost,InvoiceIssuerName,ListCost,PricingQuantity,PricingUnit,ProviderName,"
    "PublisherName,ResourceId,ServiceCategory,ServiceName,SubAccountId,SubAccountName,x_Cluster,x_Namespace,x_Model,"
    "x_LineKind,x_UsedDeviceHours,x_Efficiency,x_NoTelemetry,x_DirectCost,x_IdleCost,x_SharedCost,x_IdleShare\r\n";

// Column name -> value of data row `row` (0-based) of FOCUS output whose
// fields need no quoting.
std::map<std::string, std::string> Row(const std::string& csv, size_t row) {
  std::vector<std::string> records = absl::StrSplit(csv, "\r\n");
  std::vector<std::string> names = absl::StrSplit(records.at(0), ',');
  std::vector<std::string> values = absl::StrSplit(records.at(row + 1), ',');
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < names.size(); ++i) out[names[i]] = values.at(i);
  return out;
}

absl::Time At(const char* rfc3339) { return *ParseRfc3339("test", rfc3339); }

TEST(ChargebackFocus, EveryLineIsAUsageRowInItsBillingMonth) {
  // The hour 23:00-24:00 on 30 November is billed in November; amounts
  // that do not divide evenly stay exact, and the idle share is idle/total.
  EXPECT_EQ(ChargebackFocus(HourRequest(), WorkedExample()),
            std::string(kFocusHeader) +
                "4.666667,fleetcap,fleetcap accelerator fleet,USD,2026-12-01T00:00:00Z,2026-11-01T00:00:00Z,Usage,,"
                "Accelerator time,2026-12-01T00:00:00Z,2026-11-30T23:00:00Z,0.50,Device-Hours,4.666667,4.666667,"
                "fleetcap,4.666667,0.50,Device-Hours,fleetcap,fleetcap,,Compute,Accelerators,speech,speech,,,A100,,"
                "0.00,0.0000,false,3.50,1.166667,0.00,0.25\r\n"
                "9.333333,fleetcap,fleetcap accelerator fleet,USD,2026-12-01T00:00:00Z,2026-11-01T00:00:00Z,Usage,,"
                "Accelerator time,2026-12-01T00:00:00Z,2026-11-30T23:00:00Z,1.00,Device-Hours,9.333333,9.333333,"
                "fleetcap,9.333333,1.00,Device-Hours,fleetcap,fleetcap,,Compute,Accelerators,vision,vision,,,A100,,"
                "0.666667,0.6667,false,7.00,2.333333,0.00,0.25\r\n");
}

TEST(ChargebackFocus, TheTeamIsTheSubAccountAndTheWorkloadTheResourceQuotedAsCsvNeeds) {
  v1::ChargebackReport report = QuotedTeam();
  auto* line = report.mutable_lines(0);
  line->set_cluster("c1");
  line->set_namespace_("ads");
  line->set_workload("ranker");
  line->set_line_kind("workload");
  FocusAccount account;
  account.billing_account_id = "acme-gpu";
  account.billing_account_name = "ACME, GPU fleet";
  account.provider_name = "ACME platform";
  EXPECT_EQ(ChargebackFocus(HourRequest(), report, account),
            std::string(kFocusHeader) +
                "1.75,acme-gpu,\"ACME, GPU fleet\",USD,2026-12-01T00:00:00Z,2026-11-01T00:00:00Z,Usage,,"
                "Accelerator time held by the team's pods,2026-12-01T00:00:00Z,2026-11-30T23:00:00Z,0.25,"
                "Device-Hours,1.75,1.75,ACME platform,1.75,0.25,Device-Hours,ACME platform,ACME platform,"
                "c1/ads/ranker,Compute,Accelerators,\"ads, \"\"east\"\"\",\"ads, \"\"east\"\"\",c1,ads,A100,workload,"
                "0.125,0.5000,false,1.75,0.00,0.00,0.00\r\n");
}

TEST(ChargebackFocus, ALineThatCostsNothingHasZeroCostsAndNoIdleShare) {
  const auto row = Row(ChargebackFocus(HourRequest(), FreeOfCharge()), 0);
  for (const char* column : {"BilledCost", "ContractedCost", "EffectiveCost", "ListCost", "x_IdleCost"}) {
    EXPECT_EQ(row.at(column), "0.00") << column;
  }
  EXPECT_EQ(row.at("BillingCurrency"), "EUR");
  EXPECT_EQ(row.at("PricingQuantity"), "0.50");
  EXPECT_EQ(row.at("x_IdleShare"), "");
}

TEST(ChargebackFocus, ALineChargedAsHeldForWantOfTelemetrySaysSo) {
  v1::ChargebackReport report = WorkedExample();
  report.mutable_lines(0)->set_no_telemetry(true);
  const std::string focus = ChargebackFocus(HourRequest(), report);
  EXPECT_EQ(Row(focus, 0).at("x_NoTelemetry"), "true");
  EXPECT_EQ(Row(focus, 1).at("x_NoTelemetry"), "false");
}

TEST(ChargebackFocus, AnEmptyReportIsTheHeader) { EXPECT_EQ(ChargebackFocus(HourRequest(), Empty()), kFocusHeader); }

TEST(ChargebackFocus, ChargePeriodsFollowTheResolutionAndStopAtTheWindow) {
  v1::GetChargebackRequest request;
  *request.mutable_start() = ToProtoTimestamp(At("2026-11-15T00:00:00Z"));
  *request.mutable_end() = ToProtoTimestamp(At("2026-12-15T00:00:00Z"));
  v1::ChargebackReport report = Empty();
  AddLine(report, "speech", 3600000, 0, 0, 1000000, 0, 0);
  AddLine(report, "speech", 3600000, 0, 0, 1000000, 0, 0);
  *report.mutable_lines(0)->mutable_start() = request.start();
  *report.mutable_lines(1)->mutable_start() = ToProtoTimestamp(At("2026-12-01T00:00:00Z"));

  struct Case {
    v1::ChargebackResolution resolution;
    const char* first_end;
    const char* second_end;
  };
  for (const Case& c : {Case{v1::CHARGEBACK_RESOLUTION_HOUR, "2026-11-15T01:00:00Z", "2026-12-01T01:00:00Z"},
                        Case{v1::CHARGEBACK_RESOLUTION_DAY, "2026-11-16T00:00:00Z", "2026-12-02T00:00:00Z"},
                        Case{v1::CHARGEBACK_RESOLUTION_MONTH, "2026-12-01T00:00:00Z", "2026-12-15T00:00:00Z"},
                        Case{v1::CHARGEBACK_RESOLUTION_NONE, "2026-12-15T00:00:00Z", "2026-12-15T00:00:00Z"}}) {
    request.set_resolution(c.resolution);
    const std::string focus = ChargebackFocus(request, report);
    const auto first = Row(focus, 0);
    const auto second = Row(focus, 1);
    EXPECT_EQ(first.at("ChargePeriodStart"), "2026-11-15T00:00:00Z");
    EXPECT_EQ(first.at("ChargePeriodEnd"), c.first_end) << c.resolution;
    EXPECT_EQ(second.at("ChargePeriodEnd"), c.second_end) << c.resolution;
    EXPECT_EQ(first.at("BillingPeriodStart"), "2026-11-01T00:00:00Z");
    EXPECT_EQ(first.at("BillingPeriodEnd"), "2026-12-01T00:00:00Z");
    EXPECT_EQ(second.at("BillingPeriodStart"), "2026-12-01T00:00:00Z");
    EXPECT_EQ(second.at("BillingPeriodEnd"), "2027-01-01T00:00:00Z");
  }
}

}  // namespace
}  // namespace fleetcap::exports
