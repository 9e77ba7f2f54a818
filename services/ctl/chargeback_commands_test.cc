#include "services/ctl/chargeback_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/time_util.h"
#include "proto_time.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A Saturday, 10:37:12 UTC.
const absl::Time kChargebackNow = absl::FromUnixSeconds(1796467032);

ChargebackFlags Window() {
  ChargebackFlags f;
  f.from = "2026-11-01T00:00:00Z";
  f.to = "2026-12-01T00:00:00Z";
  return f;
}

TEST(ChargebackRequest, CarriesEveryFlag) {
  ChargebackFlags f = Window();
  f.team = "vision";
  f.cluster = "c1";
  f.namespace_ = "ns";
  f.workload = "Job/train";
  f.model = "A100";
  f.line_kind = "shared";
  f.group_by = "team, model,line_kind";
  f.resolution = "Day";
  auto request = ChargebackRequest(f, kChargebackNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(FromProtoTimestamp(request->start()), absl::FromUnixSeconds(1793491200));
  EXPECT_EQ(FromProtoTimestamp(request->end()), absl::FromUnixSeconds(1796083200));
  EXPECT_THAT(request->group_by(), ElementsAre("team", "model", "line_kind"));
  EXPECT_EQ(request->resolution(), v1::CHARGEBACK_RESOLUTION_DAY);
  EXPECT_EQ(request->team(), "vision");
  EXPECT_EQ(request->cluster(), "c1");
  EXPECT_EQ(request->namespace_(), "ns");
  EXPECT_EQ(request->workload(), "Job/train");
  EXPECT_EQ(request->model(), "A100");
  EXPECT_EQ(request->line_kind(), "shared");
}

TEST(ChargebackRequest, DefaultsToOneLineForTheWholeWindow) {
  auto request = ChargebackRequest(Window(), kChargebackNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->resolution(), v1::CHARGEBACK_RESOLUTION_NONE);
  EXPECT_EQ(request->group_by_size(), 0);
}

TEST(ChargebackRequest, RelativeWindowsAreWholeHoursUpToNow) {
  const absl::Time this_hour = absl::FromUnixSeconds(1796464800);  // 10:00 UTC
  ChargebackFlags last;
  last.last = "30d";
  auto request = ChargebackRequest(last, kChargebackNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(FromProtoTimestamp(request->start()), this_hour - absl::Hours(30 * 24));
  EXPECT_EQ(FromProtoTimestamp(request->end()), this_hour);

  ChargebackFlags from;
  from.from = "-7d";
  request = ChargebackRequest(from, kChargebackNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(FromProtoTimestamp(request->start()), this_hour - absl::Hours(7 * 24));
  EXPECT_EQ(FromProtoTimestamp(request->end()), this_hour);

  ChargebackFlags last_month;
  last_month.from = "last-month-start";
  last_month.to = "month-start";
  request = ChargebackRequest(last_month, kChargebackNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(FormatRfc3339(FromProtoTimestamp(request->start())), "2026-11-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(FromProtoTimestamp(request->end())), "2026-12-01T00:00:00Z");
}

TEST(ChargebackRequest, BadFlagsAreNamed) {
  struct Case {
    const char* name;
    void (*change)(ChargebackFlags&);
    const char* flag;
  };
  for (const Case& c : std::vector<Case>{
           {"no from", [](ChargebackFlags& f) { f.from.clear(); }, "--from"},
           {"last and from", [](ChargebackFlags& f) { f.last = "30d"; }, "--last"},
           {"last without unit",
            [](ChargebackFlags& f) {
              f = {};
              f.last = "30";
            },
            "--last: \"30\""},
           {"to before a relative from", [](ChargebackFlags& f) { f.from = "now"; }, "--to"},
           {"bad from", [](ChargebackFlags& f) { f.from = "last week"; }, "--from"},
           {"reversed", [](ChargebackFlags& f) { f.to = "2026-10-01T00:00:00Z"; }, "--to"},
           {"group by", [](ChargebackFlags& f) { f.group_by = "team,pod"; }, "--group-by: \"pod\""},
           {"resolution", [](ChargebackFlags& f) { f.resolution = "week"; }, "--resolution: \"week\""},
           {"line kind", [](ChargebackFlags& f) { f.line_kind = "overhead"; }, "--line-kind: \"overhead\""},
       }) {
    ChargebackFlags f = Window();
    c.change(f);
    EXPECT_THAT(ChargebackRequest(f, kChargebackNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.flag)))
        << c.name;
  }
}

}  // namespace
}  // namespace fleetcap::ctl
