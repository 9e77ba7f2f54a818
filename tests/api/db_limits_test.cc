// fleetcap-api when the database is slow: a request waits a bounded time for
// a pooled connection (then UNAVAILABLE / 503, naming the cause) and a
// statement runs a bounded time (then DEADLINE_EXCEEDED / 504), never a hang.
// The database is made slow for real: the test locks the token table that
// every authentication reads.

#include <future>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/time/clock.h"
#include "fleetcap/v1/token.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "pqxx/pqxx"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/pg_sessions.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

TEST(DbLimitsTest, BusyPoolIsUnavailableAndASlowStatementTimesOut) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto api = testing::StartApi(fleetcap::testing::kApiBin, (*db)->uri(),
                               {"--db-connections", "1", "--db-wait", "1", "--db-statement-timeout", "10"});
  ASSERT_THAT(api, IsOk());

  auto locker = (*db)->Connect();
  pqxx::work lock(*locker);
  testing::LockTableExclusively(lock, "api_tokens");
  // The first request takes the pool's only connection and waits on the lock.
  auto first = std::async(std::launch::async,
                          [&] { return testing::HttpGet(api->http_base() + "/v1/tokens/self", api->admin_token); });
  ASSERT_TRUE((*db)->SessionsWaitForALock(1, absl::Seconds(20)));

  // Every other request finds no free connection: a prompt, clear refusal on both transports.
  auto waiting = testing::HttpGet(api->http_base() + "/v1/tokens/self", api->admin_token);
  ASSERT_THAT(waiting, IsOk());
  EXPECT_EQ(waiting->status, 503) << waiting->body;
  EXPECT_THAT(waiting->body, HasSubstr("no connection free within 1s")) << waiting->body;

  auto stub = v1::TokenService::NewStub(grpc::CreateChannel(api->grpc_address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + api->admin_token);
  v1::WhoAmIResponse who;
  const grpc::Status status = stub->WhoAmI(&context, v1::WhoAmIRequest(), &who);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("no connection free")) << status.error_message();

  // The first request's statement is cancelled at the statement timeout, not left waiting.
  auto slow = first.get();
  ASSERT_THAT(slow, IsOk());
  EXPECT_EQ(slow->status, 504) << slow->body;
  EXPECT_THAT(slow->body, HasSubstr("time limit")) << slow->body;
  lock.abort();

  // With the database back, the same connection serves again.
  auto after = testing::HttpGet(api->http_base() + "/v1/tokens/self", api->admin_token);
  ASSERT_THAT(after, IsOk());
  EXPECT_EQ(after->status, 200) << after->body;
}

}  // namespace
}  // namespace fleetcap
