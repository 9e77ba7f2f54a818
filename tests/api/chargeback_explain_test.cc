// ExplainChargeback against the real fleetcap-api and PostgreSQL: a small
// stored inventory, its chargeback lines computed by the attribution engine
// from the stored facts and written to chargeback_hourly, then every line
// explained through the API (and fleetcapctl) and shown to add up to the
// line stored.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "optimizer/chargeback/policy_timeline_source.h"
#include "optimizer/chargeback/window_loader.h"
#include "pqxx/pqxx"
#include "store/cluster_inventory_changes.h"
#include "store/pg_attribution_facts_repository.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_team_facts_repository.h"
#include "store/test_inventory.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/support/window_lines.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

using fleetcap::testing::kApiBin;

// team-a's pods (store::TestInventory) at T4 1.00 and A100 3.00 per device-hour.
constexpr const char* kExplainPolicy = R"(version: 1
teams: [{name: team-a}, {name: team-b}]
namespaces: [{namespace: team-a, team: team-a}]
prices:
  - {model: T4, from: 2025-01-01T00:00:00Z, per_device_hour: "1.00"}
  - {model: A100, from: 2025-01-01T00:00:00Z, per_device_hour: "3.00"}
attribution: {basis: request, idle: share, idle_scope: node}
)";

class ChargebackExplainTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    ApiOnMigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_THAT(store::PgLiveInventoryRepository(pool()).Apply(store::ChangesOf(store::TestInventory())), IsOk());
    {
      // Version 1, in force before the inventory's first hour.
      store::PolicyVersionRecord policy;
      policy.document = kExplainPolicy;
      policy.applied_at = absl::FromUnixSeconds(1'764'547'200);  // 2025-12-01T00:00:00Z
      policy.applied_by = "test";
      store::AuditEntry audit;
      audit.actor = "test";
      audit.action = "policy.apply";
      auto applied = store::PgPolicyRepository(pool()).Apply(policy, std::nullopt, audit);
      ASSERT_THAT(applied, IsOk());
      ASSERT_EQ(applied->version, 1);
    }
    // The lines of the inventory's first three hours, as the optimizer computes them.
    store::PgAttributionFactsRepository facts(pool());
    store::PgTeamFactsRepository teams(pool());
    policy::PolicyTimeline timeline(chargeback::PoliciesOf(&teams));
    auto lines = fleetcap::testing::WindowLines({&facts, &teams, &timeline}, kStart, kEnd);
    ASSERT_THAT(lines, IsOk());
    ASSERT_FALSE(lines->empty());
    stored_ = *lines;
    ASSERT_THAT(repository().ReplaceHours("c1", kStart, kEnd, *lines, {}), IsOk());
  }

  store::PgChargebackRepository& repository() {
    if (!chargeback_) chargeback_ = std::make_unique<store::PgChargebackRepository>(pool());
    return *chargeback_;
  }

  grpc::Status Explain(const std::string& team, absl::Time hour, v1::ChargebackExplanation* out) {
    auto stub =
        v1::ChargebackService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + api_->admin_token);
    v1::ExplainChargebackRequest request;
    request.set_team(team);
    request.mutable_hour()->set_seconds(absl::ToUnixSeconds(hour));
    return stub->ExplainChargeback(&context, request, out);
  }

  const absl::Time kStart = store::TestT0();
  const absl::Time kEnd = store::TestT0() + absl::Hours(3);
  std::vector<store::ChargebackLineRecord> stored_;
  std::unique_ptr<store::PgChargebackRepository> chargeback_;
};

TEST_F(ChargebackExplainTest, EveryStoredLineIsExplainedAndItsExplanationAddsUpToIt) {
  int explained = 0, with_idle = 0;
  for (const store::ChargebackLineRecord& s : stored_) {
    SCOPED_TRACE(
        absl::StrCat(absl::FormatTime(s.hour, absl::UTCTimeZone()), " ", s.team, " ", s.model, " ", s.line_kind));
    v1::ChargebackExplanation e;
    grpc::Status status = Explain(s.team, s.hour, &e);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_TRUE(e.matches_stored()) << e.note();
    EXPECT_EQ(e.currency(), "USD");
    const v1::LineExplanation* line = nullptr;
    for (const v1::LineExplanation& l : e.lines()) {
      if (l.line().model() == s.model && l.line().namespace_() == s.namespace_name &&
          l.line().workload() == s.workload && l.line().line_kind() == s.line_kind) {
        line = &l;
      }
    }
    ASSERT_NE(line, nullptr);
    EXPECT_TRUE(line->matches_stored());
    // The explanation is of the stored line...
    EXPECT_EQ(line->line().held_milli_seconds(), s.held_milli_seconds);
    EXPECT_EQ(line->line().direct_cost_micro(), s.direct_cost_micro);
    EXPECT_EQ(line->line().idle_cost_micro(), s.idle_cost_micro);
    EXPECT_EQ(line->line().total_cost_micro(), s.total_cost_micro);
    // ...and adds up to it: holds to its direct cost, scopes to its idle.
    int64_t direct = 0, held = 0, idle = 0;
    for (const v1::HoldExplanation& h : line->holds()) {
      direct += h.direct_cost_micro();
      held += h.held_milli_seconds();
    }
    for (const v1::IdleExplanation& i : line->idle()) idle += i.idle_cost_micro();
    EXPECT_EQ(direct, s.direct_cost_micro);
    EXPECT_EQ(held, s.held_milli_seconds);
    EXPECT_EQ(idle, s.idle_cost_micro);
    EXPECT_EQ(direct + idle + line->line().shared_cost_micro(), s.total_cost_micro);
    ++explained;
    if (!line->idle().empty()) ++with_idle;
  }
  EXPECT_GE(explained, 4);
  EXPECT_GE(with_idle, 1);  // t4-1 is held a quarter, its node's idle shared
}

TEST_F(ChargebackExplainTest, AStoredLineThatDiffersIsSaidToBePendingRecompute) {
  const absl::Time hour = kStart + absl::Hours(1);
  std::vector<store::ChargebackLineRecord> changed;
  for (store::ChargebackLineRecord l : stored_) {
    if (l.hour != hour) continue;
    if (l.team == "team-a") l.held_milli_seconds += 1000;  // as if computed from other facts
    changed.push_back(l);
  }
  ASSERT_THAT(repository().ReplaceHours("c1", hour, hour + absl::Hours(1), changed, {}), IsOk());
  v1::ChargebackExplanation e;
  ASSERT_TRUE(Explain("team-a", hour, &e).ok());
  EXPECT_FALSE(e.matches_stored());
  EXPECT_THAT(e.note(), HasSubstr("recompute pending"));
  ASSERT_GT(e.lines_size(), 0);
  EXPECT_FALSE(e.lines(0).matches_stored());
  EXPECT_EQ(e.lines(0).stored().held_milli_seconds(), e.lines(0).line().held_milli_seconds() + 1000);
}

TEST_F(ChargebackExplainTest, FleetcapctlPrintsEachHoldAndTheLineTotal) {
  const absl::Time hour = kStart + absl::Hours(1);
  v1::ChargebackExplanation e;
  ASSERT_TRUE(Explain("team-a", hour, &e).ok());
  auto result = testing::Run({fleetcap::testing::kCtlBin, "chargeback", "explain", "--team", "team-a", "--hour",
                              "2026-01-01T01:00:00Z", "--model", "T4", "--server", api_->grpc_address(), "--token",
                              api_->admin_token});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("chargeback of team-a at 2026-01-01T01:00:00Z in USD"));
  EXPECT_THAT(result.out, HasSubstr("pod whole on t4-0 (n1)"));
  EXPECT_THAT(result.out, HasSubstr("pod share on t4-1 (n1)"));
  EXPECT_THAT(result.out, HasSubstr("idle of node n1"));
  EXPECT_THAT(result.out, ::testing::Not(HasSubstr("A100")));
  EXPECT_THAT(result.out, ::testing::Not(HasSubstr("differ")));
  auto bad = testing::Run({fleetcap::testing::kCtlBin, "chargeback", "explain", "--team", "team-a", "--hour",
                           "2026-01-01T01:30:00Z", "--server", api_->grpc_address(), "--token", api_->admin_token});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--hour"));
}

}  // namespace
}  // namespace fleetcap
