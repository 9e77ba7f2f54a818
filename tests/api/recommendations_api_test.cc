// AllocationService and GET /v1/recommendations against the real
// fleetcap-api on PostgreSQL: runs stored through PgAllocationRunRepository
// (as fleetcap-optimizer stores them) read back through gRPC and HTTP, and
// the watch that sends the current set, then each newer run.

#include <csignal>
#include <memory>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/allocation.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/grpcpp.h"
#include "proto_time.h"
#include "store/pg_allocation_run_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

using fleetcap::testing::kApiBin;
const absl::Time kComputedAt = absl::FromUnixSeconds(1'772'366'400) + absl::Microseconds(250);

store::AllocationRecommendationRecord Record(const std::string& team, const std::string& flavor, int64_t recommended) {
  store::AllocationRecommendationRecord r;
  r.team = team;
  r.flavor = flavor;
  r.demand_milli = recommended + 1500;
  r.guarantee_milli = 4000;
  r.recommended_milli = recommended;
  r.borrowing_limit_milli = 2000;
  r.lending_limit_milli = 1000;
  r.bound_by = "fair_share";
  r.explanation = "fair share at weight 1 of the pool on " + flavor;
  return r;
}

store::AllocationRunDraft Draft(int64_t vision) {
  store::AllocationRunDraft run;
  run.computed_at = kComputedAt;
  run.policy_version = 3;
  run.inputs_json = R"({"demand_lookback":"168h"})";
  run.recommendations = {Record("ads", "a100", 6000), Record("vision", "a100", vision), Record("vision", "t4", 500)};
  run.recommendations[2].borrowing_limit_milli.reset();
  run.recommendations[2].bound_by = "demand";
  return run;
}

class RecommendationsApiTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    ApiOnMigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    runs_ = std::make_unique<store::PgAllocationRunRepository>(pool());
    auto scheduler = testing::MintToken(db_->uri(), "scheduler");
    ASSERT_THAT(scheduler, IsOk());
    scheduler_ = *scheduler;
    stub_ =
        v1::AllocationService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  }

  void Prepare(grpc::ClientContext& context) {
    context.AddMetadata("authorization", "Bearer " + scheduler_);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  }

  grpc::Status Get(v1::RecommendationSet* set, const std::string& team = "") {
    grpc::ClientContext context;
    Prepare(context);
    v1::GetRecommendationsRequest request;
    request.set_team(team);
    return stub_->GetRecommendations(&context, request, set);
  }

  std::unique_ptr<store::PgAllocationRunRepository> runs_;
  std::string scheduler_;
  std::unique_ptr<v1::AllocationService::Stub> stub_;
};

TEST_F(RecommendationsApiTest, BeforeTheFirstRunTheAnswerIsNotFound) {
  v1::RecommendationSet set;
  grpc::Status status = Get(&set);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("no allocation run yet"));
  auto http = testing::HttpGet(api_->http_base() + "/v1/recommendations", scheduler_);
  ASSERT_THAT(http, IsOk());
  EXPECT_EQ(http->status, 404) << http->body;
  EXPECT_THAT(http->body, HasSubstr("\"status\":\"NOT_FOUND\""));
}

TEST_F(RecommendationsApiTest, AStoredRunReadsTheSameThroughGrpcAndHttp) {
  ASSERT_THAT(runs_->StoreRun(Draft(3000)), IsOk());
  auto run_id = runs_->StoreRun(Draft(2500));  // the newest is served
  ASSERT_THAT(run_id, IsOk());
  v1::RecommendationSet set;
  ASSERT_THAT(Get(&set), IsOk());
  EXPECT_EQ(set.run_id(), *run_id);
  EXPECT_EQ(FromProtoTimestamp(set.computed_at()), kComputedAt);
  EXPECT_EQ(set.policy_version(), 3);
  ASSERT_EQ(set.recommendations_size(), 3);
  const v1::Recommendation& vision = set.recommendations(1);
  EXPECT_EQ(vision.team(), "vision");
  EXPECT_EQ(vision.flavor(), "a100");
  EXPECT_EQ(vision.demand_milli(), 4000);
  EXPECT_EQ(vision.guarantee_milli(), 4000);
  EXPECT_EQ(vision.recommended_milli(), 2500);
  EXPECT_EQ(vision.borrowing_limit_milli(), 2000);
  EXPECT_EQ(vision.lending_limit_milli(), 1000);
  EXPECT_EQ(vision.bound_by(), "fair_share");
  EXPECT_EQ(vision.explanation(), "fair share at weight 1 of the pool on a100");
  EXPECT_FALSE(set.recommendations(2).has_borrowing_limit_milli());  // unlimited

  // HTTP answers with the canonical proto3 JSON of the same message.
  auto http = testing::HttpGet(api_->http_base() + "/v1/recommendations", scheduler_);
  ASSERT_THAT(http, IsOk());
  ASSERT_EQ(http->status, 200) << http->body;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string expected;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(set, &expected, options).ok());
  EXPECT_EQ(http->body, expected);
  EXPECT_THAT(http->body, HasSubstr("\"computedAt\":\"2026-03-01T12:00:00.000250Z\""));
}

TEST_F(RecommendationsApiTest, ATeamFilterSelectsThatTeamOnBothTransports) {
  ASSERT_THAT(runs_->StoreRun(Draft(3000)), IsOk());
  v1::RecommendationSet set;
  ASSERT_THAT(Get(&set, "vision"), IsOk());
  ASSERT_EQ(set.recommendations_size(), 2);
  EXPECT_EQ(set.recommendations(0).team(), "vision");
  EXPECT_EQ(set.recommendations(1).team(), "vision");
  auto http = testing::HttpGet(api_->http_base() + "/v1/recommendations?team=ads", scheduler_);
  ASSERT_THAT(http, IsOk());
  ASSERT_EQ(http->status, 200) << http->body;
  EXPECT_THAT(http->body, HasSubstr("\"team\":\"ads\""));
  EXPECT_THAT(http->body, ::testing::Not(HasSubstr("\"team\":\"vision\"")));
  auto bad = testing::HttpGet(api_->http_base() + "/v1/recommendations?team=a%20b", scheduler_);
  ASSERT_THAT(bad, IsOk());
  EXPECT_EQ(bad->status, 400);
  EXPECT_THAT(bad->body, HasSubstr("team: expected a name"));
  auto unknown = testing::HttpGet(api_->http_base() + "/v1/recommendations?flavor=a100", scheduler_);
  ASSERT_THAT(unknown, IsOk());
  EXPECT_EQ(unknown->status, 400);
  EXPECT_THAT(unknown->body, HasSubstr("query parameter flavor: unknown"));
}

TEST_F(RecommendationsApiTest, TheWatchSendsTheCurrentSetThenEachNewerRun) {
  auto first = runs_->StoreRun(Draft(3000));
  ASSERT_THAT(first, IsOk());
  grpc::ClientContext context;
  Prepare(context);
  auto reader = stub_->WatchRecommendations(&context, v1::WatchRecommendationsRequest());
  v1::RecommendationSet set;
  ASSERT_TRUE(reader->Read(&set));
  EXPECT_EQ(set.run_id(), *first);
  EXPECT_EQ(set.recommendations(1).recommended_milli(), 3000);
  auto second = runs_->StoreRun(Draft(2000));
  ASSERT_THAT(second, IsOk());
  ASSERT_TRUE(reader->Read(&set));
  EXPECT_EQ(set.run_id(), *second);
  EXPECT_EQ(set.recommendations(1).recommended_milli(), 2000);
  // What Get answers now is what the stream sent.
  v1::RecommendationSet got;
  ASSERT_THAT(Get(&got), IsOk());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(got, set));
  context.TryCancel();
  EXPECT_FALSE(reader->Read(&set));
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
}

TEST_F(RecommendationsApiTest, TheWatchWaitsForTheFirstRun) {
  grpc::ClientContext context;
  Prepare(context);
  v1::WatchRecommendationsRequest request;
  request.set_team("vision");
  auto reader = stub_->WatchRecommendations(&context, request);
  // The stream is open (authorised, waiting) before the run exists.
  reader->WaitForInitialMetadata();
  auto run_id = runs_->StoreRun(Draft(3000));
  ASSERT_THAT(run_id, IsOk());
  v1::RecommendationSet set;
  ASSERT_TRUE(reader->Read(&set));
  EXPECT_EQ(set.run_id(), *run_id);
  ASSERT_EQ(set.recommendations_size(), 2);
  EXPECT_EQ(set.recommendations(0).team(), "vision");
  context.TryCancel();
  (void)reader->Finish();
}

TEST_F(RecommendationsApiTest, AShutdownEndsARunningWatchCleanly) {
  ASSERT_THAT(runs_->StoreRun(Draft(3000)), IsOk());
  grpc::ClientContext context;
  Prepare(context);
  auto reader = stub_->WatchRecommendations(&context, v1::WatchRecommendationsRequest());
  v1::RecommendationSet set;
  ASSERT_TRUE(reader->Read(&set));
  testing::RunResult stopped = api_->process->Stop(SIGTERM);
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  EXPECT_FALSE(reader->Read(&set));
  grpc::Status status = reader->Finish();
  EXPECT_TRUE(status.ok()) << status.error_code() << ": " << status.error_message();
}

}  // namespace
}  // namespace fleetcap
