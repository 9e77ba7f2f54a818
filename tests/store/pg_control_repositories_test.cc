// The control plane's repositories on a real PostgreSQL: policy versions
// with the optimistic version check (including racing applies), exact
// documents for rollback, hashed tokens, the audit log written in the same
// transaction, and hostile strings stored verbatim.

#include <atomic>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pqxx/pqxx"
#include "store/pg_control_repositories.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kControlT0 = absl::FromUnixSeconds(1767225600);  // 2026-01-01T00:00:00Z

class PgControlTest : public testing::MigratedDatabaseTest {
 protected:
  PgControlTest() : MigratedDatabaseTest(/*pool_size=*/8) {}
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    policies_ = std::make_unique<PgPolicyRepository>(pool());
    tokens_ = std::make_unique<PgTokenRepository>(pool());
    audit_ = std::make_unique<PgAuditRepository>(pool());
  }

  static PolicyVersionRecord Doc(const std::string& text, const std::string& message = "") {
    PolicyVersionRecord r;
    r.document = text;
    r.applied_at = kControlT0;
    r.applied_by = "token:admin1";
    r.message = message;
    return r;
  }
  static AuditEntry Audit(const std::string& action, const std::string& details = "{}") {
    return AuditEntry{0, kControlT0, "token:admin1", action, "", details};
  }

  std::unique_ptr<PgPolicyRepository> policies_;
  std::unique_ptr<PgTokenRepository> tokens_;
  std::unique_ptr<PgAuditRepository> audit_;
};

TEST_F(PgControlTest, VersionsAppendAndTheActiveIsTheNewest) {
  EXPECT_THAT(policies_->Active(), StatusIs(absl::StatusCode::kNotFound));
  auto v1 = policies_->Apply(Doc("version: 1\n", "first"), 0, Audit("policy.apply"));
  ASSERT_THAT(v1, IsOk());
  EXPECT_EQ(v1->version, 1);
  EXPECT_FALSE(v1->base_version.has_value());
  auto v2 = policies_->Apply(Doc("version: 1\ncurrency: EUR\n"), 1, Audit("policy.apply"));
  ASSERT_THAT(v2, IsOk());
  EXPECT_EQ(v2->version, 2);
  EXPECT_EQ(v2->base_version, 1);
  auto active = policies_->Active();
  ASSERT_THAT(active, IsOk());
  EXPECT_EQ(active->version, 2);
  EXPECT_EQ(active->document, "version: 1\ncurrency: EUR\n");
  EXPECT_EQ(active->applied_at, kControlT0);
  auto history = policies_->History();
  ASSERT_THAT(history, IsOk());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[0].version, 2);
  EXPECT_EQ((*history)[1].message, "first");
  EXPECT_THAT(policies_->Get(7), StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(PgControlTest, StaleBaseIsRefusedWithAClearMessage) {
  ASSERT_THAT(policies_->Apply(Doc("version: 1\n"), 0, Audit("policy.apply")), IsOk());
  ASSERT_THAT(policies_->Apply(Doc("version: 1\n#2\n"), 1, Audit("policy.apply")), IsOk());
  auto stale = policies_->Apply(Doc("version: 1\n#stale\n"), 1, Audit("policy.apply"));
  ASSERT_THAT(stale, StatusIs(absl::StatusCode::kFailedPrecondition,
                              HasSubstr("changed since version 1: the active version is 2")));
  EXPECT_EQ(policies_->Active()->version, 2);
  // The refused apply left no audit line.
  EXPECT_EQ(audit_->List(0, 100, "policy.apply")->size(), 2u);
}

TEST_F(PgControlTest, ConcurrentAppliesOnTheSameBaseCannotInterleave) {
  ASSERT_THAT(policies_->Apply(Doc("version: 1\n"), 0, Audit("policy.apply")), IsOk());
  constexpr int kRacers = 8;
  for (int round = 0; round < 5; ++round) {
    const int32_t base = policies_->Active()->version;
    std::atomic<int> won{0}, lost{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kRacers; ++i) {
      threads.emplace_back([&, i] {
        auto r = policies_->Apply(Doc("version: 1\n# racer " + std::to_string(i) + "\n"), base, Audit("policy.apply"));
        if (r.ok()) {
          ++won;
        } else if (r.status().code() == absl::StatusCode::kFailedPrecondition) {
          ++lost;
        }
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(won.load(), 1) << "round " << round;
    EXPECT_EQ(lost.load(), kRacers - 1) << "round " << round;
    EXPECT_EQ(policies_->Active()->version, base + 1);
  }
  // Versions are contiguous and each has exactly one audit line.
  auto history = policies_->History();
  ASSERT_EQ(history->size(), 6u);
  for (size_t i = 0; i < history->size(); ++i) EXPECT_EQ((*history)[i].version, 6 - static_cast<int>(i));
  EXPECT_EQ(audit_->List(0, 100, "policy.apply")->size(), 6u);
}

TEST_F(PgControlTest, DocumentsComeBackByteForByte) {
  const std::string text =
      "version: 1   \n# comment with 'quotes', \"double\", \\backslash, $1, %00 and ünïcödé\r\n\tteams: []\n";
  ASSERT_THAT(policies_->Apply(Doc(text), 0, Audit("policy.apply")), IsOk());
  ASSERT_THAT(policies_->Apply(Doc("version: 1\n"), 1, Audit("policy.apply")), IsOk());
  // A rollback is a new version holding the old document.
  auto old = policies_->Get(1);
  ASSERT_THAT(old, IsOk());
  ASSERT_THAT(policies_->Apply(Doc(old->document, "rollback to 1"), 2, Audit("policy.rollback")), IsOk());
  EXPECT_EQ(policies_->Active()->document, text);
  EXPECT_EQ(policies_->Active()->version, 3);
}

TEST_F(PgControlTest, TokensAreFoundByHashListedAndRevoked) {
  TokenRecord t;
  t.token_id = "tok1";
  t.secret_hash = std::string("\x00\x01\xff\x7f", 4) + std::string(28, '\x42');
  t.role = "team:team-00";
  t.description = "'; DROP TABLE api_tokens; --";
  t.created_at = kControlT0;
  t.expires_at = kControlT0 + absl::Hours(24);
  t.created_by = "init";
  ASSERT_THAT(tokens_->Create(t, Audit("token.create")), IsOk());
  EXPECT_EQ(tokens_->Create(t, Audit("token.create")).code(), absl::StatusCode::kAlreadyExists);
  auto found = tokens_->FindByHash(t.secret_hash);
  ASSERT_THAT(found, IsOk());
  EXPECT_EQ(found->token_id, "tok1");
  EXPECT_EQ(found->role, "team:team-00");
  EXPECT_EQ(found->description, "'; DROP TABLE api_tokens; --");
  EXPECT_EQ(found->expires_at, kControlT0 + absl::Hours(24));
  EXPECT_FALSE(found->revoked_at.has_value());
  EXPECT_THAT(tokens_->FindByHash(std::string(32, 'x')), StatusIs(absl::StatusCode::kNotFound));

  auto revoked = tokens_->Revoke("tok1", kControlT0 + absl::Hours(1), Audit("token.revoke"));
  ASSERT_THAT(revoked, IsOk());
  EXPECT_EQ(revoked->revoked_at, kControlT0 + absl::Hours(1));
  // Revoking again keeps the first time.
  EXPECT_EQ(tokens_->Revoke("tok1", kControlT0 + absl::Hours(2), Audit("token.revoke"))->revoked_at,
            kControlT0 + absl::Hours(1));
  EXPECT_THAT(tokens_->Revoke("nope", kControlT0, Audit("token.revoke")), StatusIs(absl::StatusCode::kNotFound));
  ASSERT_EQ(tokens_->List()->size(), 1u);

  // Only the hash is stored.
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  EXPECT_EQ(txn.exec("SELECT length(secret_hash) FROM api_tokens")[0][0].as<int>(), 32);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM api_tokens")[0][0].as<int>(), 1);
}

TEST_F(PgControlTest, AuditListsInOrderWithFilterAndPaging) {
  TokenRecord t{"tok2",     std::string(32, 'a'),        "planner",    "",
                kControlT0, kControlT0 + absl::Hours(1), std::nullopt, "x"};
  ASSERT_THAT(tokens_->Create(t, Audit("token.create", R"({"role":"planner"})")), IsOk());
  ASSERT_THAT(policies_->Apply(Doc("version: 1\n"), 0, Audit("policy.apply", R"({"changes":["team added: a"]})")),
              IsOk());
  auto all = audit_->List(0, 10, "");
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].action, "token.create");
  EXPECT_EQ((*all)[0].details_json, R"({"role": "planner"})");
  EXPECT_EQ((*all)[1].target, "policy version 1");
  EXPECT_EQ((*all)[1].at, kControlT0);
  EXPECT_EQ(audit_->List((*all)[0].id, 10, "")->size(), 1u);
  EXPECT_EQ(audit_->List(0, 1, "")->size(), 1u);
  EXPECT_EQ(audit_->List(0, 10, "policy.apply")->size(), 1u);
}

}  // namespace
}  // namespace fleetcap::store
