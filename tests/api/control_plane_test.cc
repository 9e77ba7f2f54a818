// The control plane end to end through fleetcapctl and the JSON API:
// bootstrap, validate/diff/apply/history/rollback, racing applies, tokens,
// the audit log, and hostile strings in every string field.

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <limits>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_replace.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "store/pg_control_repositories.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_inventory.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kPolicyV1 = R"(version: 1
currency: USD
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
namespaces:
  - namespace: cv-train
    team: vision
flavors:
  - name: t4
    model: T4
    capacity: 10
prices:
  - model: T4
    from: 2026-01-01T00:00:00Z
    per_device_hour: "0.35"
allocation:
  - team: vision
    flavor: t4
    guarantee: 4
)";

using fleetcap::testing::kApiBin;

class ControlPlaneTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  testing::RunResult Ctl(std::vector<std::string> args, const std::string& token = "") {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--server", api_->grpc_address(), "--token", token.empty() ? api_->admin_token : token});
    return testing::Run(argv, absl::Seconds(60));
  }

  // The policy versions stored, as the store's PolicyRepository reads them.
  size_t PolicyVersions() {
    auto history = store::PgPolicyRepository(pool()).History();
    EXPECT_THAT(history, IsOk());
    return history.ok() ? history->size() : 0;
  }

  testing::TestDir dir_{"control"};
};

TEST_F(ControlPlaneTest, InitPrintsOneAdminTokenOnceThenRefuses) {
  auto fresh = testing::TestDatabase::Migrated();
  ASSERT_THAT(fresh, IsOk());
  auto first = testing::Run({fleetcap::testing::kApiBin, "init", "--db", (*fresh)->uri()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_EQ(first.out.rfind("fct_", 0), 0u) << first.out;
  EXPECT_EQ(first.out.find('\n'), first.out.size() - 1) << "one line: " << first.out;
  EXPECT_THAT(first.err, Not(HasSubstr(first.out.substr(0, 20)))) << "secret leaked to stderr";
  auto again = testing::Run({fleetcap::testing::kApiBin, "init", "--db", (*fresh)->uri()});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.err, HasSubstr("already initialised")) << again.err;
  EXPECT_TRUE(again.out.empty());
  // The printed token is an admin token of that installation.
  auto api = testing::StartApi(fleetcap::testing::kApiBin, (*fresh)->uri());
  ASSERT_THAT(api, IsOk());
  auto who = testing::Run({fleetcap::testing::kCtlBin, "token", "whoami", "--server", api->grpc_address(), "--token",
                           first.out.substr(0, first.out.size() - 1)});
  ASSERT_EQ(who.exit_code, 0) << who.err;
  EXPECT_THAT(who.out, HasSubstr("role admin")) << who.out;
}

TEST_F(ControlPlaneTest, ValidateNamesFileLineAndField) {
  const std::string good = dir_.Write("good.yaml", kPolicyV1);
  auto ok = Ctl({"policy", "validate", good});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("valid (2 teams")) << ok.out;
  const std::string bad = dir_.Write(
      "bad.yaml",
      absl::StrReplaceAll(kPolicyV1, {{"    team: vision\n", "    team: visoin\n"}, {"\"0.35\"", "\"-0.35\""}}));
  auto errors = Ctl({"policy", "validate", bad});
  EXPECT_EQ(errors.exit_code, 1);
  EXPECT_THAT(errors.err, HasSubstr(bad + ":10: namespaces[0].team: unknown team \"visoin\""));
  EXPECT_THAT(errors.err, HasSubstr(bad + ":18:22: prices[0].per_device_hour: negative price -0.35"));
  EXPECT_THAT(errors.err, HasSubstr(": 2 errors")) << errors.err;
}

TEST_F(ControlPlaneTest, DiffApplyHistoryRollback) {
  const std::string v1_file = dir_.Write("v1.yaml", kPolicyV1);
  auto diff0 = Ctl({"policy", "diff", v1_file}, "");
  ASSERT_EQ(diff0.exit_code, 0) << diff0.err;
  EXPECT_THAT(diff0.out, HasSubstr("against version 0")) << diff0.out;
  EXPECT_THAT(diff0.out, HasSubstr("team added: vision (under research)")) << diff0.out;

  auto apply1 = Ctl({"policy", "apply", v1_file, "--message", "first policy"});
  ASSERT_EQ(apply1.exit_code, 0) << apply1.err;
  EXPECT_THAT(apply1.out, HasSubstr("applied version 1")) << apply1.out;

  auto same = Ctl({"policy", "diff", v1_file});
  EXPECT_THAT(same.out, HasSubstr("no changes against version 1")) << same.out;

  const std::string v2_text = absl::StrReplaceAll(kPolicyV1, {{"\"0.35\"", "\"0.40\""}});
  const std::string v2_file = dir_.Write("v2.yaml", v2_text);
  auto diff2 = Ctl({"policy", "diff", v2_file});
  EXPECT_THAT(diff2.out,
              HasSubstr("price of T4 in all clusters from 2026-01-01T00:00:00Z: 0.35 -> 0.40 per device-hour"));
  ASSERT_EQ(Ctl({"policy", "apply", v2_file}).exit_code, 0);

  // A diff made against version 1 cannot be applied on version 2.
  auto stale = Ctl({"policy", "apply", v1_file, "--base-version", "1"});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_THAT(stale.err, HasSubstr("FAILED_PRECONDITION: the policy changed since version 1: the active version is 2"))
      << stale.err;

  auto rollback = Ctl({"policy", "rollback", "1"});
  ASSERT_EQ(rollback.exit_code, 0) << rollback.err;
  EXPECT_THAT(rollback.out, HasSubstr("as version 3")) << rollback.out;
  auto active = Ctl({"policy", "get"});
  ASSERT_EQ(active.exit_code, 0);
  EXPECT_EQ(active.out, kPolicyV1);  // byte for byte
  EXPECT_EQ(Ctl({"policy", "get", "--version", "2"}).out, v2_text);

  auto history = Ctl({"policy", "history", "--format", "json"});
  ASSERT_EQ(history.exit_code, 0) << history.err;
  auto versions = nlohmann::json::parse(history.out)["versions"];
  ASSERT_EQ(versions.size(), 3u);
  EXPECT_EQ(versions[0]["message"], "rollback to version 1");
  EXPECT_EQ(versions[0]["baseVersion"], 2);
  EXPECT_EQ(versions[2]["message"], "first policy");

  // Planners read but cannot apply.
  auto planner =
      testing::HttpRequest("POST", api_->http_base() + "/v1/tokens", R"({"role":"planner"})", api_->admin_token);
  ASSERT_EQ(planner->status, 200) << planner->body;
  const std::string planner_token = nlohmann::json::parse(planner->body)["secret"];
  EXPECT_EQ(Ctl({"policy", "get"}, planner_token).exit_code, 0);
  auto denied = Ctl({"policy", "apply", v2_file}, planner_token);
  EXPECT_EQ(denied.exit_code, 1);
  EXPECT_THAT(denied.err, HasSubstr("PERMISSION_DENIED")) << denied.err;

  // The audit log holds each change with who and what.
  auto audit = Ctl({"audit", "--format", "json"});
  ASSERT_EQ(audit.exit_code, 0) << audit.err;
  auto events = nlohmann::json::parse(audit.out)["events"];
  ASSERT_EQ(events.size(), 5u) << audit.out;  // the test's own admin token, then these
  EXPECT_EQ(events[1]["action"], "policy.apply");
  EXPECT_EQ(events[1]["target"], "policy version 1");
  EXPECT_THAT(events[1]["detailsJson"].get<std::string>(), HasSubstr("first policy"));
  EXPECT_EQ(events[2]["target"], "policy version 2");
  EXPECT_THAT(events[2]["detailsJson"].get<std::string>(), HasSubstr("0.35 -> 0.40"));
  EXPECT_EQ(events[3]["action"], "policy.rollback");
  EXPECT_EQ(events[4]["action"], "token.create");
  EXPECT_EQ(events[1]["actor"].get<std::string>().rfind("token:", 0), 0u);
}

TEST_F(ControlPlaneTest, ConcurrentAppliesThroughTheApiCannotInterleave) {
  constexpr int kRacers = 6;
  std::atomic<int> won{0}, stale{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kRacers; ++i) {
    threads.emplace_back([&, i] {
      auto stub =
          v1::PolicyService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
      grpc::ClientContext context;
      context.AddMetadata("authorization", "Bearer " + api_->admin_token);
      v1::ApplyPolicyRequest request;
      request.set_document(std::string(kPolicyV1) + "# racer " + std::to_string(i) + "\n");
      request.set_base_version(0);
      v1::ApplyPolicyResponse response;
      grpc::Status status = stub->ApplyPolicy(&context, request, &response);
      if (status.ok()) ++won;
      if (status.error_code() == grpc::StatusCode::FAILED_PRECONDITION) ++stale;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(won.load(), 1);
  EXPECT_EQ(stale.load(), kRacers - 1);
  EXPECT_EQ(PolicyVersions(), 1u);
}

TEST_F(ControlPlaneTest, TokensCreateListRevokeAndNeverAppearInLogs) {
  auto created = Ctl({"token", "create", "--role", "team:vision", "--description", "vision dashboards"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  const std::string secret = created.out.substr(0, created.out.find('\n'));
  ASSERT_EQ(secret.rfind("fct_", 0), 0u);
  auto who = Ctl({"token", "whoami"}, secret);
  ASSERT_EQ(who.exit_code, 0) << who.err;
  EXPECT_THAT(who.out, HasSubstr("role team:vision"));
  const std::string id = who.out.substr(6, who.out.find(' ', 6) - 6);

  auto list = Ctl({"token", "list"});
  ASSERT_EQ(list.exit_code, 0);
  EXPECT_THAT(list.out, HasSubstr(id));
  EXPECT_THAT(list.out, HasSubstr("vision dashboards"));
  EXPECT_THAT(list.out, Not(HasSubstr(secret)));

  auto revoke = Ctl({"token", "revoke", id});
  ASSERT_EQ(revoke.exit_code, 0) << revoke.err;
  auto after = Ctl({"token", "whoami"}, secret);
  EXPECT_EQ(after.exit_code, 1);
  EXPECT_THAT(after.err, HasSubstr("UNAUTHENTICATED")) << after.err;

  auto audit = Ctl({"audit"});
  EXPECT_THAT(audit.out, HasSubstr("token.create"));
  EXPECT_THAT(audit.out, HasSubstr("token.revoke"));
  EXPECT_THAT(audit.out, Not(HasSubstr(secret)));
  // Nothing the API logged holds a secret, even at debug level after failures.
  auto stopped = api_->process->Stop(SIGTERM);
  EXPECT_THAT(stopped.out, Not(HasSubstr(secret)));
  EXPECT_THAT(stopped.err, Not(HasSubstr(secret)));
  EXPECT_THAT(stopped.err, Not(HasSubstr(api_->admin_token)));
  auto entries = store::PgAuditRepository(pool()).List(0, std::numeric_limits<int>::max(), "");
  ASSERT_THAT(entries, IsOk());
  for (const store::AuditEntry& entry : *entries) EXPECT_THAT(entry.details_json, Not(HasSubstr(secret)));
}

TEST_F(ControlPlaneTest, HostileStringsAreRejectedOrStoredVerbatim) {
  const std::string drop = "'; DROP TABLE api_tokens; --";
  const std::string nul_escape = "%00";
  const std::string megabyte(1 << 20, 'm');
  const std::string bad_utf8 = "\xff\xfe\xc3";
  const auto post = [&](const std::string& path, const nlohmann::json& body) {
    auto r = testing::HttpRequest("POST", api_->http_base() + path, body.dump(), api_->admin_token);
    EXPECT_THAT(r, IsOk());
    return *r;
  };
  // Token description (free text): stored verbatim, or rejected when too long.
  for (const std::string& text : {drop, nul_escape, std::string("grüße \"quoted\" \\ $1")}) {
    auto r = post("/v1/tokens", {{"role", "planner"}, {"description", text}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(nlohmann::json::parse(r.body)["token"]["description"], text);
  }
  EXPECT_EQ(post("/v1/tokens", {{"role", "planner"}, {"description", megabyte}}).status, 400);
  // Role, token id, team, audit action: names only.
  for (const std::string& text : {drop, nul_escape, megabyte, std::string("team:") + drop}) {
    EXPECT_EQ(post("/v1/tokens", {{"role", text}}).status, 400) << text.substr(0, 30);
    EXPECT_EQ(post("/v1/tokens/revoke", {{"tokenId", text}}).status, 400);
  }
  EXPECT_EQ(
      testing::HttpGet(api_->http_base() + "/v1/policy/team?team=%27%3B%20DROP%20TABLE%20teams", api_->admin_token)
          ->status,
      400);
  EXPECT_EQ(testing::HttpGet(api_->http_base() + "/v1/policy/team?team=a%00b", api_->admin_token)->status, 400);
  EXPECT_EQ(testing::HttpGet(api_->http_base() + "/v1/audit?action=%27%3B%20DROP", api_->admin_token)->status, 400);
  // A cluster name is a name: refused at the edge, before any query (an unknown one is 404).
  EXPECT_EQ(testing::HttpGet(api_->http_base() + "/v1/fleet/summary?cluster=%27%3B%20DROP%20TABLE%20nodes%3B%20--",
                             api_->admin_token)
                ->status,
            400);
  EXPECT_EQ(
      testing::HttpGet(api_->http_base() + "/v1/fleet/summary?cluster=no-such-cluster", api_->admin_token)->status,
      404);
  // Policy documents: names in them are checked; the message is stored verbatim.
  for (const std::string& name : {drop, nul_escape, megabyte}) {
    const std::string doc = "version: 1\nteams:\n  - name: \"" + name + "\"\n";
    auto r = post("/v1/policy", {{"document", doc}});
    EXPECT_EQ(r.status, 400) << r.body.substr(0, 200);
    EXPECT_THAT(r.body, HasSubstr("document:3")) << r.body.substr(0, 200);
    EXPECT_LT(r.body.size(), 1000u);
  }
  auto message = post("/v1/policy", {{"document", "version: 1\n# " + drop + "\n"}, {"message", drop + " %00"}});
  ASSERT_EQ(message.status, 200) << message.body;
  auto got = testing::HttpGet(api_->http_base() + "/v1/policy", api_->admin_token);
  EXPECT_EQ(nlohmann::json::parse(got->body)["message"], drop + " %00");
  EXPECT_EQ(nlohmann::json::parse(got->body)["document"], "version: 1\n# " + drop + "\n");
  // Invalid UTF-8 never gets in: JSON bodies and gRPC strings are refused.
  auto raw = testing::HttpRequest("POST", api_->http_base() + "/v1/tokens",
                                  "{\"role\":\"planner\",\"description\":\"" + bad_utf8 + "\"}", api_->admin_token);
  EXPECT_EQ(raw->status, 400) << raw->body;
  {
    auto stub =
        v1::PolicyService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + api_->admin_token);
    v1::ApplyPolicyRequest request;
    request.set_document("version: 1\n# " + bad_utf8 + "\n");
    v1::ApplyPolicyResponse response;
    EXPECT_THAT(stub->ApplyPolicy(&context, request, &response), Not(IsOk()));
  }
  // Everything is still there, and only what was accepted was stored.
  auto tokens = store::PgTokenRepository(pool()).List();
  ASSERT_THAT(tokens, IsOk());
  EXPECT_EQ(tokens->size(), 4u);  // the admin + 3 planners
  EXPECT_EQ(PolicyVersions(), 1u);
  EXPECT_EQ(
      std::count_if(tokens->begin(), tokens->end(), [&](const store::TokenRecord& t) { return t.description == drop; }),
      1);
  auto conn = db_->Connect();
  EXPECT_EQ(testing::StoredNodes(*conn).size(), 0u);  // the table is still there
}

}  // namespace
}  // namespace fleetcap
