#include "services/api/chargeback/chargeback_query.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "proto_time.h"
#include "services/api/chargeback/chargeback_http_routes.h"
#include "services/api/http_json.h"
#include "services/api/status_mapping.h"
#include "services/api/test_scopes.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_control_repositories.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const absl::Time kChargebackT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

using test_scopes::kTwoOrgPolicy;

store::ChargebackLineRecord Line(absl::Time hour, const std::string& team, int64_t cost,
                                 const std::string& kind = "workload") {
  store::ChargebackLineRecord l;
  l.hour = hour;
  l.cluster = "c1";
  l.team = team;
  l.namespace_name = kind == "workload" ? team + "-ns" : "";
  l.workload = kind == "workload" ? "Job/" + team : "";
  l.model = "A100";
  l.line_kind = kind;
  l.held_milli_seconds = 3'600'000;
  l.used_milli_seconds = 900'000;
  l.observed_milli_seconds = 3'600'000;
  l.direct_cost_micro = cost;
  l.total_cost_micro = cost;
  return l;
}

using test_scopes::TeamScope;

Scope Planner() { return Scope{}; }

v1::GetChargebackRequest Request(absl::Time start, absl::Time end, std::vector<std::string> group_by = {"team"}) {
  v1::GetChargebackRequest r;
  *r.mutable_start() = ToProtoTimestamp(start);
  *r.mutable_end() = ToProtoTimestamp(end);
  for (auto& g : group_by) r.add_group_by(g);
  return r;
}

std::vector<std::string> TeamsOf(const v1::ChargebackReport& report) {
  std::vector<std::string> teams;
  for (const auto& line : report.lines()) teams.push_back(line.team());
  return teams;
}

class ChargebackQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::PolicyVersionRecord record;
    record.document = kTwoOrgPolicy;
    record.applied_at = kChargebackT0;
    ASSERT_THAT(policies_.Apply(record, std::nullopt, store::AuditEntry{}), IsOk());
    // research has no lines of its own; vision-detect's are under vision.
    ASSERT_THAT(
        lines_.ReplaceHours(
            "c1", kChargebackT0, kChargebackT0 + absl::Hours(2),
            {Line(kChargebackT0, "vision", 1'000'000), Line(kChargebackT0, "vision-detect", 2'000'000),
             Line(kChargebackT0, "ads", 4'000'000), Line(kChargebackT0, "idle", 8'000'000, "idle"),
             Line(kChargebackT0, "unassigned", 16'000'000), Line(kChargebackT0 + absl::Hours(1), "vision", 32'000'000)},
            {}),
        IsOk());
  }

  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  store::MemoryChargebackRepository lines_;
  ChargebackQuery query_{&lines_, &cache_};
};

TEST_F(ChargebackQueryTest, PlannersSeeEveryTeamWithTheTotalAndThePolicysCurrency) {
  auto report = query_.Run(Planner(), Request(kChargebackT0, kChargebackT0 + absl::Hours(2)));
  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(TeamsOf(*report), ElementsAre("ads", "idle", "unassigned", "vision", "vision-detect"));
  EXPECT_EQ(report->total_cost_micro(), 63'000'000);
  EXPECT_EQ(report->currency(), "EUR");
  EXPECT_EQ(report->lines(3).total_cost_micro(), 33'000'000);
  EXPECT_EQ(report->lines(3).held_milli_seconds(), 7'200'000);
  EXPECT_DOUBLE_EQ(report->lines(3).efficiency(), 0.25);
  EXPECT_EQ(FromProtoTimestamp(report->lines(3).start()), kChargebackT0);
}

TEST_F(ChargebackQueryTest, HeldTimeWithoutAReadingIsLeftOutOfEfficiency) {
  auto half_seen = Line(kChargebackT0, "vision", 7);
  half_seen.cluster = "c2";
  half_seen.observed_milli_seconds = 1'800'000;
  half_seen.no_telemetry = true;
  ASSERT_THAT(lines_.ReplaceHours("c2", kChargebackT0, kChargebackT0 + absl::Hours(1), {half_seen}, {}), IsOk());
  v1::GetChargebackRequest request = Request(kChargebackT0, kChargebackT0 + absl::Hours(1), {"team"});
  request.set_cluster("c2");
  auto report = query_.Run(Planner(), request);
  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->lines_size(), 1);
  EXPECT_EQ(report->lines(0).observed_milli_seconds(), 1'800'000);
  EXPECT_DOUBLE_EQ(report->lines(0).efficiency(), 0.5);  // 900,000 used of 1,800,000 observed, not of 3,600,000 held
}

TEST_F(ChargebackQueryTest, EfficiencyIsZeroWhenNothingWasHeldAndNoTelemetryIsPassedOn) {
  auto shared = Line(kChargebackT0, "ads", 5, "shared");
  shared.held_milli_seconds = 0;
  shared.used_milli_seconds = 0;
  shared.observed_milli_seconds = 0;
  shared.cluster = "c2";
  auto usage = Line(kChargebackT0, "vision", 7);
  usage.cluster = "c2";
  usage.no_telemetry = true;
  ASSERT_THAT(lines_.ReplaceHours("c2", kChargebackT0, kChargebackT0 + absl::Hours(1), {shared, usage}, {}), IsOk());
  v1::GetChargebackRequest request = Request(kChargebackT0, kChargebackT0 + absl::Hours(1), {"team", "line_kind"});
  request.set_cluster("c2");
  auto report = query_.Run(Planner(), request);
  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->lines_size(), 2);
  EXPECT_EQ(report->lines(0).line_kind(), "shared");
  EXPECT_EQ(report->lines(0).efficiency(), 0);
  EXPECT_FALSE(report->lines(0).no_telemetry());
  EXPECT_TRUE(report->lines(1).no_telemetry());
}

TEST_F(ChargebackQueryTest, TheTeamFilterCoversTheTeamsSubtree) {
  v1::GetChargebackRequest request = Request(kChargebackT0, kChargebackT0 + absl::Hours(2));
  request.set_team("research");
  auto report = query_.Run(Planner(), request);
  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(TeamsOf(*report), ElementsAre("vision", "vision-detect"));
  EXPECT_EQ(report->total_cost_micro(), 35'000'000);
  // A team the policy does not know (any more) is read as itself.
  request.set_team("unassigned");
  report = query_.Run(Planner(), request);
  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(TeamsOf(*report), ElementsAre("unassigned"));
}

TEST_F(ChargebackQueryTest, ATeamTokenSeesItsSubtreeOnlyNeverIdleUnassignedOrOtherTeams) {
  const Scope vision = TeamScope("vision", {"vision", "vision-detect"});
  auto report = query_.Run(vision, Request(kChargebackT0, kChargebackT0 + absl::Hours(2)));
  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(TeamsOf(*report), ElementsAre("vision", "vision-detect"));
  EXPECT_EQ(report->total_cost_micro(), 35'000'000);

  // Not grouped by team, the sums still hold only its own lines.
  report = query_.Run(vision, Request(kChargebackT0, kChargebackT0 + absl::Hours(2), {}));
  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->lines_size(), 1);
  EXPECT_EQ(report->lines(0).total_cost_micro(), 35'000'000);

  v1::GetChargebackRequest child = Request(kChargebackT0, kChargebackT0 + absl::Hours(2));
  child.set_team("vision-detect");
  report = query_.Run(vision, child);
  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(TeamsOf(*report), ElementsAre("vision-detect"));
}

TEST_F(ChargebackQueryTest, ATeamOutsideTheTokensSubtreeIsDeniedAlikeWhetherOrNotItExists) {
  const Scope vision = TeamScope("vision", {"vision", "vision-detect"});
  std::vector<std::string> messages;
  for (const char* team : {"ads", "research", "idle", "unassigned", "no-such-team"}) {
    v1::GetChargebackRequest request = Request(kChargebackT0, kChargebackT0 + absl::Hours(2));
    request.set_team(team);
    auto report = query_.Run(vision, request);
    EXPECT_THAT(report, StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("team"))) << team;
    messages.push_back(std::string(report.status().message()));
  }
  for (const auto& message : messages) EXPECT_EQ(message, messages[0]);
}

TEST_F(ChargebackQueryTest, ATokenOfAReservedTeamReadsNothing) {
  // A token may be minted for "team:idle"; it must not read the idle lines,
  // nor everything through an empty team selector.
  auto report = query_.Run(TeamScope("idle", {"idle"}), Request(kChargebackT0, kChargebackT0 + absl::Hours(2)));
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->lines_size(), 0);
  EXPECT_EQ(report->total_cost_micro(), 0);
}

TEST_F(ChargebackQueryTest, BadRequestsNameTheFieldAndTheValue) {
  struct Case {
    const char* name;
    v1::GetChargebackRequest request;
    const char* field;
    const char* value;
  };
  v1::GetChargebackRequest no_start = Request(kChargebackT0, kChargebackT0 + absl::Hours(1));
  no_start.clear_start();
  v1::GetChargebackRequest no_end = Request(kChargebackT0, kChargebackT0 + absl::Hours(1));
  no_end.clear_end();
  v1::GetChargebackRequest bad_group = Request(kChargebackT0, kChargebackT0 + absl::Hours(1), {"team", "pod"});
  v1::GetChargebackRequest bad_kind = Request(kChargebackT0, kChargebackT0 + absl::Hours(1));
  bad_kind.set_line_kind("overhead");
  v1::GetChargebackRequest bad_resolution = Request(kChargebackT0, kChargebackT0 + absl::Hours(1));
  bad_resolution.set_resolution(static_cast<v1::ChargebackResolution>(9));
  v1::GetChargebackRequest bad_nanos = Request(kChargebackT0, kChargebackT0 + absl::Hours(1));
  bad_nanos.mutable_end()->set_nanos(-1);
  for (const Case& c : std::vector<Case>{
           {"no start", no_start, "start", "missing"},
           {"no end", no_end, "end", "missing"},
           {"empty window", Request(kChargebackT0, kChargebackT0), "end", "2026-01-01T00:00:00Z is not after start"},
           {"reversed", Request(kChargebackT0 + absl::Hours(1), kChargebackT0), "end", "is not after start"},
           {"not a whole hour", Request(kChargebackT0 + absl::Minutes(30), kChargebackT0 + absl::Hours(2)), "start",
            "2026-01-01T00:30:00Z is not a whole hour"},
           {"end not a whole hour", Request(kChargebackT0, kChargebackT0 + absl::Seconds(3601)), "end",
            "01:00:01Z is not a whole hour"},
           {"too long", Request(kChargebackT0, kChargebackT0 + absl::Hours(24 * 401)), "end",
            "2027-02-06T00:00:00Z is more than 400 days after start"},
           {"group_by", bad_group, "group_by", "\"pod\""},
           {"line_kind", bad_kind, "line_kind", "\"overhead\""},
           {"resolution", bad_resolution, "resolution", "9"},
           {"nanos", bad_nanos, "end.nanos", "-1"},
       }) {
    auto report = query_.Run(Planner(), c.request);
    EXPECT_THAT(report, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.field))) << c.name;
    EXPECT_THAT(report.status().message(), HasSubstr(c.value)) << c.name;
  }
  // The longest window is allowed.
  EXPECT_THAT(query_.Run(Planner(), Request(kChargebackT0, kChargebackT0 + kMaxChargebackWindow)), IsOk());
}

TEST_F(ChargebackQueryTest, AnAnswerPastTheLineBoundAsksToNarrowTheRequest) {
  ChargebackQuery small(&lines_, &cache_, /*heavy_reads=*/nullptr, /*max_lines=*/4);
  auto all = small.Run(Planner(), Request(kChargebackT0, kChargebackT0 + absl::Hours(2)));
  EXPECT_THAT(all, StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("more than 4")));
  EXPECT_THAT(all.status().message(), HasSubstr("narrow the window"));
  EXPECT_THAT(small.Run(Planner(), Request(kChargebackT0, kChargebackT0 + absl::Hours(2), {"model"})), IsOk());
}

// A read past the heavy bound (here more than 3 stored lines) takes one of the
// heavy places, and is refused with a retry time while none is free; a light
// read never needs one.
TEST_F(ChargebackQueryTest, AHeavyReadWaitsForAPlaceAndALightOneNever) {
  HeavyReads heavy({/*rows=*/3, /*total=*/1, /*per_token=*/1, /*retry_after=*/absl::Seconds(3)});
  ChargebackQuery query(&lines_, &cache_, &heavy);
  const auto two_hours = Request(kChargebackT0, kChargebackT0 + absl::Hours(2));                     // 6 lines
  const auto second_hour = Request(kChargebackT0 + absl::Hours(1), kChargebackT0 + absl::Hours(2));  // 1 line
  {
    auto taken = heavy.Admit("another-token", 1'000);
    ASSERT_THAT(taken, IsOk());
    auto refused = query.Run(Planner(), two_hours);
    EXPECT_THAT(refused, StatusIs(absl::StatusCode::kUnavailable, HasSubstr("heavy reads run 1 at once")));
    EXPECT_EQ(RetryAfter(refused.status()), absl::Seconds(3));
    EXPECT_EQ(ErrorResponse(refused.status()).status, 503);
    EXPECT_THAT(query.Run(Planner(), second_hour), IsOk());
  }
  auto answered = query.Run(Planner(), two_hours);
  ASSERT_THAT(answered, IsOk());
  EXPECT_EQ(answered->total_cost_micro(), 63'000'000);
  // The place is given back with the answer.
  EXPECT_THAT(heavy.Admit("another-token", 1'000), IsOk());
}

// Each hands over the lines Run answers with, one by one in the same order,
// and the report without them.
TEST_F(ChargebackQueryTest, EachHandsOverRunsLinesInOrder) {
  const auto request = Request(kChargebackT0, kChargebackT0 + absl::Hours(2), {"team", "line_kind"});
  auto run = query_.Run(Planner(), request);
  ASSERT_THAT(run, IsOk());
  std::vector<v1::ChargebackLine> handed;
  auto each = query_.Each(Planner(), request, [&](v1::ChargebackLine&& line) { handed.push_back(std::move(line)); });
  ASSERT_THAT(each, IsOk());
  EXPECT_EQ(each->lines_size(), 0);
  EXPECT_EQ(each->total_cost_micro(), run->total_cost_micro());
  EXPECT_EQ(each->currency(), run->currency());
  ASSERT_EQ(handed.size(), static_cast<size_t>(run->lines_size()));
  for (size_t i = 0; i < handed.size(); ++i) {
    EXPECT_EQ(handed[i].SerializeAsString(), run->lines(static_cast<int>(i)).SerializeAsString()) << i;
  }
}

// The HTTP answer, made a thousand lines at a time, is JsonResponse of Run's
// report byte for byte: with no line, a few, and past several batches.
TEST_F(ChargebackQueryTest, TheHttpAnswerIsTheReportsJsonByteForByte) {
  std::vector<store::ChargebackLineRecord> many;
  for (int h = 0; h < 100; ++h) {
    for (int w = 0; w < 25; ++w) {
      auto l = Line(kChargebackT0 + absl::Hours(10 + h), "ads", 1'000 + w);
      l.workload = "Job/w-" + std::to_string(w);
      many.push_back(l);
    }
  }
  ASSERT_THAT(lines_.ReplaceHours("c1", kChargebackT0 + absl::Hours(10), kChargebackT0 + absl::Hours(110), many, {}),
              IsOk());
  const std::vector<std::pair<v1::GetChargebackRequest, int>> cases = {
      {Request(kChargebackT0 + absl::Hours(200), kChargebackT0 + absl::Hours(201)), 0},
      {Request(kChargebackT0, kChargebackT0 + absl::Hours(2)), 5},
      {Request(kChargebackT0 + absl::Hours(10), kChargebackT0 + absl::Hours(110), {"team", "workload"}), 25},
  };
  for (auto [request, lines] : cases) {
    auto report = query_.Run(Planner(), request);
    ASSERT_THAT(report, IsOk());
    EXPECT_EQ(report->lines_size(), lines);
    const HttpResponse whole = JsonResponse(*report);
    const HttpResponse batched = ChargebackJsonResponse(query_, Planner(), request);
    EXPECT_EQ(batched.status, 200);
    EXPECT_EQ(batched.body, whole.body) << lines;
    request.set_resolution(v1::CHARGEBACK_RESOLUTION_HOUR);
    report = query_.Run(Planner(), request);
    ASSERT_THAT(report, IsOk());
    EXPECT_EQ(ChargebackJsonResponse(query_, Planner(), request).body, JsonResponse(*report).body);
  }
  // 2,500 lines hourly by workload: three batches.
  auto hourly = Request(kChargebackT0 + absl::Hours(10), kChargebackT0 + absl::Hours(110), {"workload"});
  hourly.set_resolution(v1::CHARGEBACK_RESOLUTION_HOUR);
  auto report = query_.Run(Planner(), hourly);
  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->lines_size(), 2'500);
  EXPECT_EQ(ChargebackJsonResponse(query_, Planner(), hourly).body, JsonResponse(*report).body);
  // A refusal is the same as Run's.
  auto backwards = Request(kChargebackT0 + absl::Hours(2), kChargebackT0);
  EXPECT_EQ(ChargebackJsonResponse(query_, Planner(), backwards).status, 400);
}

TEST_F(ChargebackQueryTest, ATotalPastInt64IsAnErrorNotAWrappedNumber) {
  const int64_t big = std::numeric_limits<int64_t>::max() / 2 + 1;
  for (const char* cluster : {"c8", "c9"}) {
    auto l = Line(kChargebackT0 + absl::Hours(5), "ads", big);
    l.cluster = cluster;
    ASSERT_THAT(lines_.ReplaceHours(cluster, kChargebackT0 + absl::Hours(5), kChargebackT0 + absl::Hours(6), {l}, {}),
                IsOk());
  }
  auto report =
      query_.Run(Planner(), Request(kChargebackT0 + absl::Hours(5), kChargebackT0 + absl::Hours(6), {"cluster"}));
  EXPECT_THAT(report, StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("total_cost_micro")));
}

TEST_F(ChargebackQueryTest, WithoutAPolicyTheCurrencyIsTheDocumentDefault) {
  store::MemoryPolicyRepository none{&audit_};
  ActivePolicyCache cache{&none};
  ChargebackQuery query{&lines_, &cache};
  auto report = query.Run(Planner(), Request(kChargebackT0, kChargebackT0 + absl::Hours(1)));
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->currency(), "USD");
}

TEST(ChargebackRequestFromQuery, ReadsEveryParameter) {
  auto query = ParseHttpQuery(
      "start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z&group_by=team,%20model&group_by=line_kind"
      "&resolution=DAY&team=vision&cluster=c1&namespace=ns&workload=Job%2Fx&model=A100&line_kind=idle",
      {"group_by"});
  ASSERT_THAT(query, IsOk());
  auto request = ChargebackRequestFromQuery(*query);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(FromProtoTimestamp(request->start()), kChargebackT0);
  EXPECT_EQ(FromProtoTimestamp(request->end()), kChargebackT0 + absl::Hours(24));
  EXPECT_THAT(request->group_by(), ElementsAre("team", "model", "line_kind"));
  EXPECT_EQ(request->resolution(), v1::CHARGEBACK_RESOLUTION_DAY);
  EXPECT_EQ(request->team(), "vision");
  EXPECT_EQ(request->cluster(), "c1");
  EXPECT_EQ(request->namespace_(), "ns");
  EXPECT_EQ(request->workload(), "Job/x");
  EXPECT_EQ(request->model(), "A100");
  EXPECT_EQ(request->line_kind(), "idle");
}

TEST(ChargebackRequestFromQuery, MissingTimesAndUnknownResolutionsNameTheParameter) {
  std::map<std::string, std::string> query = {{"end", "2026-01-02T00:00:00Z"}};
  EXPECT_THAT(ChargebackRequestFromQuery(query), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("start")));
  query["start"] = "yesterday";
  EXPECT_THAT(ChargebackRequestFromQuery(query), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("start")));
  query["start"] = "2026-01-01T00:00:00Z";
  query["resolution"] = "week";
  EXPECT_THAT(ChargebackRequestFromQuery(query),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("resolution: \"week\"")));
  query["resolution"] = "";
  auto request = ChargebackRequestFromQuery(query);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->resolution(), v1::CHARGEBACK_RESOLUTION_NONE);
  EXPECT_EQ(request->group_by_size(), 0);
}

}  // namespace
}  // namespace fleetcap::api
