#include "services/api/auth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "absl/strings/str_cat.h"
#include "fleetcap/v1/access.pb.h"
#include "google/protobuf/descriptor.h"
#include "prometheus/registry.h"
#include "proto_time.h"
#include "services/api/access_table.h"
#include "services/api/allocation/allocation_http_routes.h"
#include "services/api/chargeback/chargeback_http_routes.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/control/control_http_routes.h"
#include "services/api/control/policy_operations.h"
#include "services/api/control/token_operations.h"
#include "services/api/fleet/fleet_http_routes.h"
#include "services/api/planning/planning_http_routes.h"
#include "services/api/token_secret.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_control_repositories.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

const absl::Time kAuthT0 = absl::FromUnixSeconds(1767225600);

constexpr const char* kAuthTree = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: vision-detect
    parent: vision
  - name: ads
    kind: org
)";

class AuthTest : public ::testing::Test {
 protected:
  std::string Mint(const std::string& role, absl::Duration ttl = absl::Hours(1)) {
    auto created = CreateToken(&tokens_, clock_, "test", role, "", ttl);
    EXPECT_THAT(created, IsOk());
    return created->secret();
  }
  Scope AdminScope() { return *auth_.Authenticate("Bearer " + Mint("admin")); }

  SimulatedClock clock_{kAuthT0};
  store::MemoryAuditRepository audit_;
  store::MemoryTokenRepository tokens_{&audit_};
  store::MemoryPolicyRepository policies_{&audit_};
  Authenticator auth_{&tokens_, &policies_, &clock_};
  PolicyOperations policy_ops_{&policies_, &clock_};
  TokenOperations token_ops_{&tokens_, &clock_};
};

TEST_F(AuthTest, SecretsAre256RandomBitsAndOnlyTheirHashIsKept) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    auto s = GenerateTokenSecret();
    ASSERT_THAT(s, IsOk());
    EXPECT_EQ(s->secret.rfind("fct_", 0), 0u);
    EXPECT_EQ(s->secret.size(), 4u + 43u);  // 32 bytes in unpadded base64
    EXPECT_EQ(s->hash.size(), 32u);
    EXPECT_EQ(s->hash, HashTokenSecret(s->secret));
    EXPECT_TRUE(seen.insert(s->secret).second);
  }
  const std::string secret = Mint("planner");
  const auto tokens = tokens_.List();
  ASSERT_THAT(tokens, IsOk());
  for (const auto& t : *tokens) {
    EXPECT_EQ(t.secret_hash, HashTokenSecret(secret));
    EXPECT_THAT(t.description, Not(HasSubstr(secret)));
  }
  const auto audit = audit_.List(0, 100, "");
  ASSERT_THAT(audit, IsOk());
  for (const auto& e : *audit) EXPECT_THAT(e.details_json, Not(HasSubstr(secret)));
}

TEST_F(AuthTest, BadCredentialsAreUnauthenticated) {
  const std::string live = Mint("planner");
  const std::string expiring = Mint("planner", absl::Minutes(5));
  const std::string revoked = Mint("admin");
  const std::string revoked_id = tokens_.List()->back().token_id;
  ASSERT_THAT(tokens_.Revoke(revoked_id, kAuthT0, {}), IsOk());
  clock_.Advance(absl::Minutes(10));
  for (const std::string& header :
       {std::string(""), std::string("Basic abc"), std::string("Bearer "), std::string("Bearer fct_nope"),
        "Bearer " + expiring, "Bearer " + revoked, "bearer " + live, "Bearer " + std::string(1 << 20, 'x')}) {
    auto scope = auth_.Authenticate(header);
    // The secret is never echoed back.
    EXPECT_THAT(scope, StatusIs(absl::StatusCode::kUnauthenticated, Not(HasSubstr("fct_")))) << header.substr(0, 40);
  }
  auto ok = auth_.Authenticate("Bearer " + live);
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->role, Role::kPlanner);
}

TEST_F(AuthTest, TeamScopeIsItsSubtreeInTheActivePolicy) {
  const std::string secret = Mint("team:vision");
  auto before = auth_.Authenticate("Bearer " + secret);
  ASSERT_THAT(before, IsOk());
  EXPECT_EQ(before->teams, std::vector<std::string>{"vision"});
  v1::ApplyPolicyRequest apply;
  apply.set_document(kAuthTree);
  ASSERT_THAT(policy_ops_.Apply(AdminScope(), apply), IsOk());
  auto after = auth_.Authenticate("Bearer " + secret);
  ASSERT_THAT(after, IsOk());
  EXPECT_EQ(after->teams, (std::vector<std::string>{"vision", "vision-detect"}));
  EXPECT_TRUE(after->Covers("vision-detect"));
  EXPECT_FALSE(after->Covers("research"));
  EXPECT_FALSE(after->Covers("ads"));
}

// Authorising a request and answering it read the policy once: a version
// applied in between changes neither the teams the answer covers nor its
// currency, which both stay those of the version the caller was authorised under.
TEST_F(AuthTest, AnAnswerUsesThePolicyItsRequestWasAuthorizedUnder) {
  const std::string v1_tree = absl::StrCat(kAuthTree, "currency: EUR\n");
  const std::string v2_tree = absl::StrCat(kAuthTree, "  - name: vision-new\n    parent: research\ncurrency: USD\n");
  store::MemoryChargebackRepository lines;
  std::vector<store::ChargebackLineRecord> records;
  for (const char* team : {"vision", "vision-new", "ads"}) {
    store::ChargebackLineRecord line;
    line.hour = kAuthT0;
    line.cluster = "c1";
    line.team = team;
    line.line_kind = "workload";
    line.total_cost_micro = 1'000'000;
    records.push_back(line);
  }
  ASSERT_THAT(lines.ReplaceHours("c1", kAuthT0, kAuthT0 + absl::Hours(1), records, {}), IsOk());
  ActivePolicyCache queries_cache(&policies_);
  ChargebackQuery query(&lines, &queries_cache);
  v1::GetChargebackRequest request;
  *request.mutable_start() = ToProtoTimestamp(kAuthT0);
  *request.mutable_end() = ToProtoTimestamp(kAuthT0 + absl::Hours(1));
  request.add_group_by("team");
  request.set_team("research");

  for (const std::string role : {"planner", "team:research"}) {
    SCOPED_TRACE(role);
    v1::ApplyPolicyRequest apply;
    apply.set_document(v1_tree);
    ASSERT_THAT(policy_ops_.Apply(AdminScope(), apply), IsOk());
    auto scope = auth_.Authenticate("Bearer " + Mint(role));
    ASSERT_THAT(scope, IsOk());
    apply.set_document(v2_tree);  // applied while the request is under way
    ASSERT_THAT(policy_ops_.Apply(AdminScope(), apply), IsOk());
    auto report = query.Run(*scope, request);
    ASSERT_THAT(report, IsOk());
    EXPECT_EQ(report->currency(), "EUR");
    ASSERT_EQ(report->lines_size(), 1);
    EXPECT_EQ(report->lines(0).team(), "vision");
  }
}

TEST_F(AuthTest, OutOfScopeSaysTheSameWhetherOrNotTheTeamExists) {
  v1::ApplyPolicyRequest apply;
  apply.set_document(kAuthTree);
  ASSERT_THAT(policy_ops_.Apply(AdminScope(), apply), IsOk());
  Scope team = *auth_.Authenticate("Bearer " + Mint("team:vision"));
  v1::GetTeamRequest existing, missing, own;
  existing.set_team("ads");
  missing.set_team("no-such-team");
  own.set_team("vision-detect");
  auto a = policy_ops_.GetTeam(team, existing);
  auto b = policy_ops_.GetTeam(team, missing);
  EXPECT_THAT(a, StatusIs(absl::StatusCode::kPermissionDenied));
  EXPECT_EQ(a.status(), b.status());
  EXPECT_THAT(policy_ops_.GetTeam(team, own), IsOk());
  // An admin sees the difference.
  EXPECT_THAT(policy_ops_.GetTeam(AdminScope(), existing), IsOk());
  EXPECT_THAT(policy_ops_.GetTeam(AdminScope(), missing), StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(AuthTest, RolesAgainstAccessLevels) {
  Scope admin{"a", Role::kAdmin, "", {}}, planner{"p", Role::kPlanner, "", {}},
      scheduler{"s", Role::kScheduler, "", {}}, team{"t", Role::kTeam, "x", {"x"}};
  struct Row {
    Access access;
    bool admin, planner, scheduler, team;
  };
  for (const Row& r : std::vector<Row>{{Access::kAdmin, true, false, false, false},
                                       {Access::kRead, true, true, false, false},
                                       {Access::kTeamRead, true, true, false, true},
                                       {Access::kRecommendations, true, true, true, true},
                                       {Access::kAnyCaller, true, true, true, true}}) {
    EXPECT_EQ(Authenticator::Authorize(admin, r.access, "x").ok(), r.admin);
    EXPECT_EQ(Authenticator::Authorize(planner, r.access, "x").ok(), r.planner);
    EXPECT_EQ(Authenticator::Authorize(scheduler, r.access, "x").ok(), r.scheduler);
    EXPECT_EQ(Authenticator::Authorize(team, r.access, "x").ok(), r.team);
  }
  // Anything not in the table is admin-only.
  EXPECT_EQ(AccessFor("/fleetcap.v1.NewService/NewMethod"), Access::kAdmin);
}

// Every route the API's modules register has its own row in the access table
// (a route without one would silently be admin-only).
TEST_F(AuthTest, EveryHttpRouteIsInTheAccessTable) {
  prometheus::Registry registry;
  ApiMetrics metrics(registry);
  HttpGateway gateway(&metrics, &auth_, &clock_);
  AddFleetRoutes(gateway, nullptr, nullptr, nullptr, nullptr, nullptr);
  AddAllocationRoutes(gateway, nullptr, nullptr);
  AuditOperations audit_ops(&audit_);
  AddControlRoutes(gateway, &policy_ops_, &token_ops_, &audit_ops);
  AddChargebackRoutes(gateway, nullptr);
  AddPlanningRoutes(gateway, nullptr);
  const std::vector<std::string> keys = gateway.RouteKeys();
  EXPECT_NE(std::find(keys.begin(), keys.end(), "GET /v1/chargeback"), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "GET /v1/fleet/capacity"), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "GET /v1/recommendations/manifests"), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "GET /v1/forecast"), keys.end());
  EXPECT_GE(keys.size(), 11u);
  for (const auto& key : keys) EXPECT_EQ(AccessTable().count(key), 1u) << key;
}

// Every method of the API says in its .proto who may call it (none is
// admin-only by omission), and each gRPC method is in the table.
TEST(AccessTableTest, EveryMethodDeclaresItsAccess) {
  int methods = 0;
  for (const auto& [key, access] : AccessTable()) {
    if (key.front() != '/') continue;  // an HTTP route
    std::string name = key.substr(1);
    name[name.rfind('/')] = '.';
    const google::protobuf::MethodDescriptor* method =
        google::protobuf::DescriptorPool::generated_pool()->FindMethodByName(name);
    ASSERT_NE(method, nullptr) << key;
    EXPECT_TRUE(method->options().HasExtension(v1::access)) << key;
    EXPECT_NE(method->options().GetExtension(v1::access), v1::ACCESS_UNSPECIFIED) << key;
    ++methods;
  }
  EXPECT_EQ(methods, 32);
}

TEST_F(AuthTest, ApplyRollbackAndStaleBase) {
  const Scope admin = AdminScope();
  v1::ApplyPolicyRequest first;
  first.set_document(kAuthTree);
  first.set_base_version(0);
  auto v1 = policy_ops_.Apply(admin, first);
  ASSERT_THAT(v1, IsOk());
  EXPECT_EQ(v1->policy().version(), 1);
  EXPECT_EQ(v1->changes_size(), 4);

  v1::ApplyPolicyRequest second = first;
  second.set_document(std::string(kAuthTree) + "currency: EUR\n");
  second.set_base_version(1);
  second.set_message("euros");
  auto v2 = policy_ops_.Apply(admin, second);
  ASSERT_THAT(v2, IsOk());
  ASSERT_EQ(v2->changes_size(), 1);
  EXPECT_EQ(v2->changes(0), "currency: USD -> EUR");

  auto stale = policy_ops_.Apply(admin, second);
  EXPECT_THAT(stale, StatusIs(absl::StatusCode::kFailedPrecondition));

  v1::RollbackPolicyRequest rollback;
  rollback.set_version(1);
  auto v3 = policy_ops_.Rollback(admin, rollback);
  ASSERT_THAT(v3, IsOk());
  EXPECT_EQ(v3->policy().version(), 3);
  EXPECT_EQ(v3->policy().document(), kAuthTree);
  EXPECT_EQ(v3->changes(0), "currency: EUR -> USD");

  auto audit = *audit_.List(0, 100, "");
  ASSERT_EQ(audit.back().action, "policy.rollback");
  EXPECT_THAT(audit.back().details_json, HasSubstr("currency: EUR -> USD"));
  EXPECT_EQ(audit.back().actor, admin.actor());

  v1::ApplyPolicyRequest invalid;
  invalid.set_document("version: 1\nteams:\n  - name: a\n    parent: b\n");
  auto refused = policy_ops_.Apply(admin, invalid);
  ASSERT_THAT(refused, StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("document:4: teams[0].parent: unknown team \"b\"")));
  EXPECT_EQ(policies_.Active()->version, 3);
}

TEST_F(AuthTest, TokenRequestsAreValidated) {
  const Scope admin = AdminScope();
  for (const char* role : {"root", "team:", "team:'; DROP TABLE api_tokens; --", "Admin"}) {
    v1::CreateTokenRequest request;
    request.set_role(role);
    EXPECT_THAT(token_ops_.Create(admin, request), StatusIs(absl::StatusCode::kInvalidArgument)) << role;
  }
  v1::CreateTokenRequest verbatim;
  verbatim.set_role("team:vision");
  verbatim.set_description("'; DROP TABLE api_tokens; -- %00");
  auto created = token_ops_.Create(admin, verbatim);
  ASSERT_THAT(created, IsOk());
  EXPECT_EQ(created->token().description(), "'; DROP TABLE api_tokens; -- %00");
  EXPECT_EQ(created->token().expires_at().seconds(), absl::ToUnixSeconds(kAuthT0 + kDefaultTokenTtl));
  v1::CreateTokenRequest nul = verbatim;
  nul.set_description(std::string("a\0b", 3));
  EXPECT_THAT(token_ops_.Create(admin, nul), StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace fleetcap::api
