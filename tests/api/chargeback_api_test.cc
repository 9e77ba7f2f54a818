// ChargebackService.GetChargeback and GET /v1/chargeback against the real
// fleetcap-api on PostgreSQL, over lines written by PgChargebackRepository
// (tests/support/served_chargeback.h): every answer is compared with sums
// worked out here from the lines as written.

#include <functional>
#include <map>
#include <set>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/time/civil_time.h"
#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/grpcpp.h"
#include "nlohmann/json.hpp"
#include "proto_time.h"
#include "services/api/chargeback/chargeback_query.h"
#include "store/pg_chargeback_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/served_chargeback.h"
#include "tests/support/status_matchers.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::kChargebackEnd;
using ::fleetcap::testing::kChargebackStart;
using ::testing::HasSubstr;
using Predicate = std::function<bool(const store::ChargebackLineRecord&)>;

constexpr char kStartText[] = "2026-01-31T20:00:00Z";
constexpr char kEndText[] = "2026-02-01T04:00:00Z";

v1::GetChargebackRequest Request(std::vector<std::string> group_by,
                                 v1::ChargebackResolution resolution = v1::CHARGEBACK_RESOLUTION_NONE,
                                 absl::Time start = kChargebackStart, absl::Time end = kChargebackEnd) {
  v1::GetChargebackRequest r;
  *r.mutable_start() = ToProtoTimestamp(start);
  *r.mutable_end() = ToProtoTimestamp(end);
  for (auto& g : group_by) r.add_group_by(g);
  r.set_resolution(resolution);
  return r;
}

bool Grouped(const v1::GetChargebackRequest& r, const std::string& field) {
  return std::find(r.group_by().begin(), r.group_by().end(), field) != r.group_by().end();
}

absl::Time BucketStart(absl::Time hour, const v1::GetChargebackRequest& r) {
  const absl::TimeZone utc = absl::UTCTimeZone();
  switch (r.resolution()) {
    case v1::CHARGEBACK_RESOLUTION_HOUR:
      return hour;
    case v1::CHARGEBACK_RESOLUTION_DAY:
      return absl::FromCivil(absl::ToCivilDay(hour, utc), utc);
    case v1::CHARGEBACK_RESOLUTION_MONTH:
      return absl::FromCivil(absl::ToCivilMonth(hour, utc), utc);
    default:
      return FromProtoTimestamp(r.start());
  }
}

// The report `r` must give over the lines `selected` picks, summed here.
v1::ChargebackReport Expected(const std::vector<store::ChargebackLineRecord>& lines, const v1::GetChargebackRequest& r,
                              const Predicate& selected) {
  using Key = std::tuple<absl::Time, std::string, std::string, std::string, std::string, std::string, std::string>;
  std::map<Key, v1::ChargebackLine> sums;
  const absl::Time start = FromProtoTimestamp(r.start()), end = FromProtoTimestamp(r.end());
  for (const auto& l : lines) {
    if (l.hour < start || l.hour >= end || !selected(l)) continue;
    v1::ChargebackLine k;
    *k.mutable_start() = ToProtoTimestamp(BucketStart(l.hour, r));
    if (Grouped(r, "team")) k.set_team(l.team);
    if (Grouped(r, "cluster")) k.set_cluster(l.cluster);
    if (Grouped(r, "namespace")) k.set_namespace_(l.namespace_name);
    if (Grouped(r, "workload")) k.set_workload(l.workload);
    if (Grouped(r, "model")) k.set_model(l.model);
    if (Grouped(r, "line_kind")) k.set_line_kind(l.line_kind);
    const Key key{
        FromProtoTimestamp(k.start()), k.team(), k.cluster(), k.namespace_(), k.workload(), k.model(), k.line_kind()};
    auto [it, added] = sums.emplace(key, k);
    v1::ChargebackLine& s = it->second;
    s.set_held_milli_seconds(s.held_milli_seconds() + l.held_milli_seconds);
    s.set_used_milli_seconds(s.used_milli_seconds() + l.used_milli_seconds);
    s.set_observed_milli_seconds(s.observed_milli_seconds() + l.observed_milli_seconds);
    s.set_direct_cost_micro(s.direct_cost_micro() + l.direct_cost_micro);
    s.set_idle_cost_micro(s.idle_cost_micro() + l.idle_cost_micro);
    s.set_shared_cost_micro(s.shared_cost_micro() + l.shared_cost_micro);
    s.set_total_cost_micro(s.total_cost_micro() + l.total_cost_micro);
    s.set_no_telemetry(s.no_telemetry() || l.no_telemetry);
  }
  v1::ChargebackReport report;
  report.set_currency("EUR");
  for (auto& [key, line] : sums) {
    line.set_efficiency(line.observed_milli_seconds() > 0
                            ? static_cast<double>(line.used_milli_seconds()) / line.observed_milli_seconds()
                            : 0.0);
    report.set_total_cost_micro(report.total_cost_micro() + line.total_cost_micro());
    *report.add_lines() = line;
  }
  return report;
}

bool AnyLine(const store::ChargebackLineRecord&) { return true; }

std::string Diff(const v1::ChargebackReport& a, const v1::ChargebackReport& b) {
  google::protobuf::util::MessageDifferencer differencer;
  std::string out;
  differencer.ReportDifferencesToString(&out);
  return differencer.Compare(a, b) ? "" : out;
}

class ChargebackApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeChargeback(fleetcap::testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
  }
  static void TearDownTestSuite() { served_.reset(); }

  static const std::vector<store::ChargebackLineRecord>& lines() { return served_->lines; }

  static grpc::Status Get(const v1::GetChargebackRequest& request, v1::ChargebackReport* report,
                          const std::string& role = "planner") {
    auto stub = v1::ChargebackService::NewStub(
        grpc::CreateChannel(served_->api.grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + served_->tokens.at(role));
    return stub->GetChargeback(&context, request, report);
  }
  static v1::ChargebackReport MustGet(const v1::GetChargebackRequest& request, const std::string& role = "planner") {
    v1::ChargebackReport report;
    grpc::Status status = Get(request, &report, role);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return report;
  }
  static testing::HttpResult Http(const std::string& query, const std::string& role = "planner") {
    auto result = testing::HttpGet(served_->api.http_base() + "/v1/chargeback?" + query, served_->tokens.at(role));
    EXPECT_THAT(result, IsOk());
    return result.ok() ? *result : testing::HttpResult{};
  }

  static inline std::unique_ptr<testing::ServedChargeback> served_;
};

TEST_F(ChargebackApiTest, EachGroupBySumsTheLinesAsWrittenWithTheTotalAndCurrency) {
  for (const std::vector<std::string>& group_by :
       std::vector<std::vector<std::string>>{{},
                                             {"team"},
                                             {"team", "model"},
                                             {"cluster", "namespace", "workload"},
                                             {"line_kind"},
                                             {"team", "cluster", "namespace", "workload", "model", "line_kind"}}) {
    const auto request = Request(group_by);
    const auto report = MustGet(request);
    const auto expected = Expected(lines(), request, AnyLine);
    EXPECT_EQ(Diff(report, expected), "") << ::testing::PrintToString(group_by);
    EXPECT_GT(report.total_cost_micro(), 0);
  }
}

TEST_F(ChargebackApiTest, EachResolutionBucketsByUtcHourDayAndCalendarMonth) {
  const absl::Time jan = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01
  const absl::Time mar = absl::FromUnixSeconds(1'772'323'200);  // 2026-03-01
  struct Case {
    v1::ChargebackResolution resolution;
    absl::Time start, end;
    size_t buckets;
  };
  for (const Case& c : {
           Case{v1::CHARGEBACK_RESOLUTION_HOUR, kChargebackStart, kChargebackEnd, 8},
           Case{v1::CHARGEBACK_RESOLUTION_DAY, kChargebackStart, kChargebackEnd, 2},
           Case{v1::CHARGEBACK_RESOLUTION_MONTH, kChargebackStart, kChargebackEnd, 2},
           Case{v1::CHARGEBACK_RESOLUTION_NONE, kChargebackStart, kChargebackEnd, 1},
           // Whole days and whole months, which the store reads from its rollups.
           Case{v1::CHARGEBACK_RESOLUTION_DAY, kChargebackStart - absl::Hours(20), kChargebackEnd + absl::Hours(20), 2},
           Case{v1::CHARGEBACK_RESOLUTION_MONTH, jan, mar, 2},
           Case{v1::CHARGEBACK_RESOLUTION_NONE, jan, mar, 1},
       }) {
    const auto request = Request({"team"}, c.resolution, c.start, c.end);
    const auto report = MustGet(request);
    EXPECT_EQ(Diff(report, Expected(lines(), request, AnyLine)), "") << c.resolution;
    std::set<int64_t> starts;
    for (const auto& line : report.lines()) starts.insert(line.start().seconds());
    EXPECT_EQ(starts.size(), c.buckets) << c.resolution;
    // Every resolution sums the same lines.
    EXPECT_EQ(report.total_cost_micro(), Expected(lines(), Request({}), AnyLine).total_cost_micro());
  }
}

TEST_F(ChargebackApiTest, EachFilterSelectsItsLinesAndTeamCoversTheSubtree) {
  struct Case {
    std::string name;
    std::function<void(v1::GetChargebackRequest&)> set;
    Predicate selected;
  };
  auto team_in = [](std::set<std::string> teams) {
    return [teams](const store::ChargebackLineRecord& l) { return teams.count(l.team) > 0; };
  };
  for (const Case& c : std::vector<Case>{
           {"cluster", [](auto& r) { r.set_cluster("c2"); }, [](const auto& l) { return l.cluster == "c2"; }},
           {"namespace", [](auto& r) { r.set_namespace_("detect-ns"); },
            [](const auto& l) { return l.namespace_name == "detect-ns"; }},
           {"workload", [](auto& r) { r.set_workload("Job/train"); },
            [](const auto& l) { return l.workload == "Job/train"; }},
           {"model", [](auto& r) { r.set_model("H100"); }, [](const auto& l) { return l.model == "H100"; }},
           {"line_kind idle", [](auto& r) { r.set_line_kind("idle"); },
            [](const auto& l) { return l.line_kind == "idle"; }},
           {"line_kind fixed", [](auto& r) { r.set_line_kind("fixed"); },
            [](const auto& l) { return l.line_kind == "fixed"; }},
           {"team research", [](auto& r) { r.set_team("research"); }, team_in({"vision", "vision-detect"})},
           {"team vision", [](auto& r) { r.set_team("vision"); }, team_in({"vision", "vision-detect"})},
           {"team ads", [](auto& r) { r.set_team("ads"); }, team_in({"ads"})},
           {"team idle", [](auto& r) { r.set_team("idle"); }, team_in({"idle"})},
           {"two filters",
            [](auto& r) {
              r.set_team("vision");
              r.set_cluster("c1");
            },
            [](const auto& l) { return l.team.rfind("vision", 0) == 0 && l.cluster == "c1"; }},
       }) {
    auto request = Request({"team", "cluster", "namespace", "workload", "model", "line_kind"});
    c.set(request);
    const auto report = MustGet(request);
    EXPECT_EQ(Diff(report, Expected(lines(), request, c.selected)), "") << c.name;
    EXPECT_GT(report.lines_size(), 0) << c.name;
  }
}

TEST_F(ChargebackApiTest, HttpAnswersWithTheCanonicalJsonOfTheSameReport) {
  auto request = Request({"team", "model", "line_kind"}, v1::CHARGEBACK_RESOLUTION_DAY);
  request.set_team("research");
  const auto grpc_report = MustGet(request);
  ASSERT_GT(grpc_report.lines_size(), 2);
  // group_by both comma-separated and repeated.
  const auto http = Http(std::string("start=") + kStartText + "&end=" + kEndText +
                         "&group_by=team,model&group_by=line_kind&resolution=day&team=research");
  ASSERT_EQ(http.status, 200) << http.body;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string canonical;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(grpc_report, &canonical, options).ok());
  EXPECT_EQ(http.body, canonical);
  v1::ChargebackReport parsed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(http.body, &parsed).ok()) << http.body;
  EXPECT_EQ(Diff(parsed, grpc_report), "");
}

TEST_F(ChargebackApiTest, BadRequestsAreInvalidArgumentNamingTheFieldAndValue) {
  const std::string window = std::string("start=") + kStartText + "&end=" + kEndText;
  struct Case {
    std::string query;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{
           {std::string("end=") + kEndText, "start: missing"},
           {std::string("start=") + kStartText, "end: missing"},
           {std::string("start=") + kStartText + "&end=" + kStartText, "end: 2026-01-31T20:00:00Z is not after start"},
           {std::string("start=2026-01-31T20:30:00Z&end=") + kEndText,
            "start: 2026-01-31T20:30:00Z is not a whole hour"},
           {std::string("start=") + kStartText + "&end=2027-03-08T04:00:00Z",
            "end: 2027-03-08T04:00:00Z is more than 400 days after start"},
           {"start=yesterday&end=today", "start"},
           {window + "&group_by=team,pod", "group_by: \"pod\""},
           {window + "&resolution=week", "resolution: \"week\""},
           {window + "&line_kind=overhead", "line_kind: \"overhead\""},
           {window + "&teams=ads", "query parameter teams: unknown"},
           {window + "&team=a&team=b", "team: given more than once"},
       }) {
    const auto http = Http(c.query);
    EXPECT_EQ(http.status, 400) << c.query << ": " << http.body;
    const auto error = nlohmann::json::parse(http.body);
    EXPECT_EQ(error["status"], "INVALID_ARGUMENT") << c.query;
    EXPECT_THAT(error["message"].get<std::string>(), HasSubstr(c.mentions)) << c.query << ": " << http.body;
  }

  v1::GetChargebackRequest no_end = Request({});
  no_end.clear_end();
  auto bad_group = Request({"team", "pod"});
  auto bad_kind = Request({});
  bad_kind.set_line_kind("overhead");
  auto bad_resolution = Request({});
  bad_resolution.set_resolution(static_cast<v1::ChargebackResolution>(7));
  struct GrpcCase {
    v1::GetChargebackRequest request;
    std::string mentions;
  };
  for (const GrpcCase& c : std::vector<GrpcCase>{
           {no_end, "end: missing"},
           {Request({}, v1::CHARGEBACK_RESOLUTION_NONE, kChargebackEnd, kChargebackStart), "end: "},
           {Request({}, v1::CHARGEBACK_RESOLUTION_NONE, kChargebackStart + absl::Seconds(1), kChargebackEnd),
            "start: 2026-01-31T20:00:01Z is not a whole hour"},
           {Request({}, v1::CHARGEBACK_RESOLUTION_NONE, kChargebackStart, kChargebackStart + absl::Hours(24 * 401)),
            "more than 400 days after start"},
           {bad_group, "group_by: \"pod\""},
           {bad_kind, "line_kind: \"overhead\""},
           {bad_resolution, "resolution: 7"},
       }) {
    v1::ChargebackReport report;
    grpc::Status status = Get(c.request, &report);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.mentions;
    EXPECT_THAT(status.error_message(), HasSubstr(c.mentions));
  }
}

TEST_F(ChargebackApiTest, ATeamTokenReadsItsOwnSubtreeWithTheIdleAndSharedCostGivenToIt) {
  auto own = [](const store::ChargebackLineRecord& l) { return l.team == "vision" || l.team == "vision-detect"; };
  const auto request = Request({"team", "cluster", "namespace", "workload", "model", "line_kind"});
  const auto report = MustGet(request, "team:vision");
  EXPECT_EQ(Diff(report, Expected(lines(), request, own)), "");
  std::set<std::string> teams;
  for (const auto& line : report.lines()) teams.insert(line.team());
  EXPECT_EQ(teams, (std::set<std::string>{"vision", "vision-detect"}));

  // Summed over everything, still only its own lines.
  const auto whole = MustGet(Request({}), "team:vision");
  EXPECT_EQ(whole.total_cost_micro(), Expected(lines(), Request({}), own).total_cost_micro());
  EXPECT_LT(whole.total_cost_micro(), MustGet(Request({})).total_cost_micro());

  // A team under it narrows; ads sees its own workload, shared and fixed lines.
  auto child = Request({"team"});
  child.set_team("vision-detect");
  EXPECT_EQ(Diff(MustGet(child, "team:vision"),
                 Expected(lines(), child, [](const auto& l) { return l.team == "vision-detect"; })),
            "");
  const auto ads_request = Request({"team", "line_kind"});
  EXPECT_EQ(Diff(MustGet(ads_request, "team:ads"),
                 Expected(lines(), ads_request, [](const auto& l) { return l.team == "ads"; })),
            "");
}

TEST_F(ChargebackApiTest, AnotherTeamIsUnreachableByFilterOrByUrl) {
  std::vector<std::string> messages;
  for (const char* team : {"ads", "research", "idle", "unassigned", "no-such-team"}) {
    auto request = Request({"team"});
    request.set_team(team);
    v1::ChargebackReport report;
    grpc::Status status = Get(request, &report, "team:vision");
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << team;
    EXPECT_EQ(report.lines_size(), 0) << team;
    messages.push_back(status.error_message());

    const auto http =
        Http(std::string("start=") + kStartText + "&end=" + kEndText + "&group_by=team&team=" + team, "team:vision");
    EXPECT_EQ(http.status, 403) << team << ": " << http.body;
    EXPECT_THAT(http.body, ::testing::Not(HasSubstr("costMicro"))) << team;
  }
  for (const auto& message : messages) EXPECT_EQ(message, messages[0]) << "must not reveal which teams exist";
  // Schedulers read no bill.
  v1::ChargebackReport report;
  EXPECT_EQ(Get(Request({}), &report, "scheduler").error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Http(std::string("start=") + kStartText + "&end=" + kEndText, "scheduler").status, 403);
}

TEST_F(ChargebackApiTest, AnAnswerPastTheLineBoundAsksForANarrowerRequest) {
  // One March hour of a cluster with a line per workload, one more than an answer may carry.
  const absl::Time hour = absl::FromUnixSeconds(1'772'323'200);
  std::vector<store::ChargebackLineRecord> many;
  many.reserve(api::kMaxChargebackLines + 1);
  for (int64_t i = 0; i <= api::kMaxChargebackLines; ++i) {
    store::ChargebackLineRecord l;
    l.hour = hour;
    l.cluster = "big";
    l.team = "ads";
    l.namespace_name = "ads-ns";
    l.workload = "Pod/p" + std::to_string(i);
    l.model = "T4";
    l.line_kind = "workload";
    l.held_milli_seconds = 1000;
    l.direct_cost_micro = l.total_cost_micro = 1;
    many.push_back(std::move(l));
  }
  auto pool = PgPool::Open(served_->db->uri(), 1);
  ASSERT_THAT(pool, IsOk());
  store::PgChargebackRepository repo(pool->get());
  ASSERT_THAT(repo.ReplaceHours("big", hour, hour + absl::Hours(1), many, {}), IsOk());

  auto request = Request({"workload"}, v1::CHARGEBACK_RESOLUTION_NONE, hour, hour + absl::Hours(1));
  v1::ChargebackReport report;
  grpc::Status status = Get(request, &report);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("narrow the window"));
  const auto http = Http("start=2026-03-01T00:00:00Z&end=2026-03-01T01:00:00Z&group_by=workload");
  EXPECT_EQ(http.status, 413) << http.body.substr(0, 200);
  EXPECT_THAT(http.body, HasSubstr("coarser resolution"));
  // Summed by team, the same lines fit.
  const auto by_team = MustGet(Request({"team"}, v1::CHARGEBACK_RESOLUTION_NONE, hour, hour + absl::Hours(1)));
  ASSERT_EQ(by_team.lines_size(), 1);
  EXPECT_EQ(by_team.total_cost_micro(), api::kMaxChargebackLines + 1);
}

}  // namespace
}  // namespace fleetcap
