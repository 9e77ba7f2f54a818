#pragma once
// A real fleetcap-api over a store with two teams that must never see each
// other: team vision-detect (namespace vision-ns, pod p-vision) under org
// research, and org ads (namespace ads-ns, pod p-ads), both in cluster c1,
// each with a minute of usage, a waiting pod, recommendations and forecasts.
// Tokens of every role: admin, planner, scheduler and team:vision. The
// suites that share it derive their fixture from TwoTeamFleetTest.

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "fleetcap/v1/allocation.grpc.pb.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "fleetcap/v1/usage.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "pqxx/pqxx"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_forecast_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_usage_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"
#include "tests/support/tokens.h"

namespace fleetcap {

using ::fleetcap::testing::IsOk;

inline constexpr const char* kPolicy = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: vision-detect
    parent: vision
  - name: ads
    kind: org
namespaces:
  - namespace: vision-ns
    team: vision-detect
  - namespace: ads-ns
    team: ads
)";

// An hour of usage of one namespace of cluster c1.
v1::GetUsageRequest VisionUsageRequest(const std::string& ns);

// Requests that an allowed caller can make without changing anything (bad
// arguments are fine where only the auth outcome is asserted), and that are
// in scope for team:vision where the method is scoped: the serialized request
// of a gRPC method, and the path and query of an HTTP route ("GET /v1/usage").
std::string GrpcRequest(const std::string& method);
std::string HttpTarget(const std::string& key);

// "/fleetcap.v1.FleetService/GetFleetSummary" and every other method of every service.
std::vector<std::string> AllFleetcapMethods();

class TwoTeamFleetTest : public ::testing::Test {
 protected:
  // Two pods of two teams in c1, both waiting for a GPU, and a minute of each
  // pod's use of a device: what a query that loses its namespace filter would
  // hand to the wrong team.
  static void SeedTwoTeams() {
    auto pool = PgPool::Open(db_->uri(), 1);
    ASSERT_THAT(pool, IsOk());
    const absl::Time now = absl::Now();
    store::InventoryChanges c;
    c.cluster = "c1";
    for (const auto& [uid, ns, team, milli] : std::vector<std::tuple<std::string, std::string, std::string, int>>{
             {"p-vision", "vision-ns", "vision-detect", 1000}, {"p-ads", "ads-ns", "ads", 2000}}) {
      c.pods.push_back({{uid, ns, uid, team, "Pod", uid, "", now, std::nullopt, std::nullopt, 0, false}, ""});
      c.demands.push_back({uid, "nvidia.com/gpu", "", milli, now - absl::Hours(1), std::nullopt});
    }
    ASSERT_THAT(store::PgLiveInventoryRepository(pool->get()).Apply(c), IsOk());
    std::vector<store::UsageMinuteRow> minutes;
    for (const auto& [device, uid, ns] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"node-1-gpu0", "p-vision", "vision-ns"}, {"node-1-gpu1", "p-ads", "ads-ns"}}) {
      store::UsageMinuteRow row;
      row.device_id = device;
      row.pod_uid = uid;
      row.minute_ms = int64_t{1'767'226'200'000};  // 2026-01-01T00:10:00Z
      row.util_mean = 0.5;
      row.samples = 4;
      row.namespace_ = ns;
      row.pod = uid;
      minutes.push_back(row);
    }
    // The store's clock at that minute: the fixed date stays inside its retention.
    const SimulatedClock at_the_minute(absl::FromUnixMillis(minutes[0].minute_ms));
    store::UsageStoreOptions options;
    options.clock = &at_the_minute;
    auto written = store::PgUsageRepository(pool->get(), options).WriteMinutes("c1", minutes, "test");
    ASSERT_THAT(written, IsOk());
    ASSERT_EQ(written->written, 2);
  }

  static void SetUpTestSuite() {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = db->release();
    auto api = testing::StartApi(fleetcap::testing::kApiBin, db_->uri());
    ASSERT_THAT(api, IsOk());
    api_ = new testing::ApiProcess(std::move(*api));
    for (const char* role : {"planner", "scheduler", "team:vision"}) {
      auto token = testing::MintToken(db_->uri(), role);
      ASSERT_THAT(token, IsOk());
      tokens_[role] = *token;
    }
    tokens_["admin"] = api_->admin_token;
    SeedTwoTeams();
    {
      // One allocation run, so that an allowed watch answers at once.
      auto pool = PgPool::Open(db_->uri(), 1);
      ASSERT_THAT(pool, IsOk());
      store::AllocationRunDraft run;
      run.computed_at = absl::FromUnixSeconds(1767225600);
      for (const char* team : {"ads", "research", "vision", "vision-detect"}) {
        store::AllocationRecommendationRecord r;
        r.team = team;
        r.flavor = "a100";
        r.recommended_milli = 1000;
        r.bound_by = "demand";
        run.recommendations.push_back(r);
      }
      ASSERT_THAT(store::PgAllocationRunRepository(pool->get()).StoreRun(run), IsOk());
      // One forecast run: the flavor's total and capacity, and two teams' series.
      store::ForecastRunDraft forecasts;
      forecasts.header.computed_at = absl::FromUnixSeconds(1767225600);
      forecasts.header.history_start = absl::FromUnixSeconds(1767225600 - 2 * 3600);
      forecasts.header.forecast_start = absl::FromUnixSeconds(1767225600);
      forecasts.header.horizon_hours = 24;
      for (const auto& [team, what] : std::vector<std::pair<std::string, std::string>>{
               {"", "held"}, {"", "capacity"}, {"vision-detect", "held"}, {"ads", "held"}}) {
        store::ForecastSeriesRecord s;
        s.flavor = "a100";
        s.team = team;
        s.what = what;
        s.model = "mean";
        s.history = {1000, 2000};
        s.p50.assign(24, 1500);
        s.p90.assign(24, 2500);
        forecasts.series.push_back(s);
      }
      ASSERT_THAT(store::PgForecastRepository(pool->get()).StoreRun(forecasts), IsOk());
    }
    auto stub =
        v1::PolicyService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + api_->admin_token);
    v1::ApplyPolicyRequest apply;
    apply.set_document(kPolicy);
    v1::ApplyPolicyResponse response;
    grpc::Status status = stub->ApplyPolicy(&context, apply, &response);
    ASSERT_THAT(status, IsOk()) << status.error_message();
  }
  static void TearDownTestSuite() {
    delete api_;
    delete db_;
  }

  static grpc::Status Call(const std::string& method, const std::string& authorization) {
    if (method == "/fleetcap.v1.AllocationService/WatchRecommendations") return Watch(authorization);
    return CallBytes(method, authorization, GrpcRequest(method));
  }

  // A unary call of `method` with `bytes` as its serialized request.
  static grpc::Status CallBytes(const std::string& method, const std::string& authorization, const std::string& bytes) {
    grpc::GenericStub stub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    if (!authorization.empty()) context.AddMetadata("authorization", authorization);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    grpc::Slice slice(bytes);
    grpc::ByteBuffer request(&slice, 1), response;
    // A completion queue drained on this thread (not the callback API, whose
    // status hand-over between gRPC's threads ThreadSanitizer cannot see).
    grpc::CompletionQueue queue;
    std::unique_ptr<grpc::GenericClientAsyncResponseReader> call =
        stub.PrepareUnaryCall(&context, method, request, &queue);
    call->StartCall();
    grpc::Status status;
    call->Finish(&response, &status, &status);
    void* tag = nullptr;
    bool ok = false;
    if (!queue.Next(&tag, &ok) || tag != &status) return grpc::Status(grpc::StatusCode::INTERNAL, "no completion");
    queue.Shutdown();
    while (queue.Next(&tag, &ok)) {
    }
    return status;
  }

  // The stream's outcome: OK once it sends its first set, else how it ended.
  static grpc::Status Watch(const std::string& authorization, const std::string& team = "vision-detect",
                            v1::RecommendationSet* first = nullptr) {
    auto stub =
        v1::AllocationService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    if (!authorization.empty()) context.AddMetadata("authorization", authorization);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::WatchRecommendationsRequest request;
    request.set_team(team);
    auto reader = stub->WatchRecommendations(&context, request);
    v1::RecommendationSet set;
    if (reader->Read(&set)) {
      if (first != nullptr) *first = set;
      context.TryCancel();
      (void)reader->Finish();
      return grpc::Status::OK;
    }
    return reader->Finish();
  }

  static testing::TestDatabase* db_;
  static testing::ApiProcess* api_;
  static std::map<std::string, std::string> tokens_;
};

}  // namespace fleetcap
