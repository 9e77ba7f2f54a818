// Teams are resolved from the policy when facts are read, against the real
// fleetcap-api on a fresh database per test: a namespace mapping attributes
// pods without a team label, a team token reads its own namespaces, a
// tenant's pod label does not move its bill, and a policy applied later
// re-attributes only from when it took effect.

#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "store/pg_control_repositories.h"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;

const absl::Time kT0 = absl::FromUnixSeconds(1767225600);  // 2026-01-01T00:00:00Z

std::string Policy(const std::string& cv_train_team, const std::string& extra = "") {
  return absl::StrCat(R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: speech
    parent: research
  - name: ads
    kind: org
namespaces:
  - namespace: cv-train
    team: )",
                      cv_train_team, "\n", extra);
}

using fleetcap::testing::kApiBin;

class TeamAttributionTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    ApiOnMigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    const absl::Time from = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"T4", "nvidia", "nvidia.com/gpu"}};
    c.devices = {{"n1/gpu0", "n1", 0, "T4", from, std::nullopt}, {"n1/gpu1", "n1", 1, "T4", from, std::nullopt}};
    ASSERT_THAT(store::PgLiveInventoryRepository(pool()).Apply(c), IsOk());
  }

  // A pod of `ns` holding one whole device from kT0, with `label` as its own team label.
  void HoldingPod(const std::string& uid, const std::string& ns, const std::string& label, const std::string& device) {
    store::InventoryChanges c;
    c.cluster = "c1";
    c.pods = {{{uid, ns, uid, label, "Pod", uid, "", kT0, std::nullopt, std::nullopt, 1000, false}, ""}};
    c.holds = {{uid, device, 1000, kT0, std::nullopt}};
    ASSERT_THAT(store::PgLiveInventoryRepository(pool()).Apply(c), IsOk());
  }

  // Applies `document` as admin; returns when it took effect (its applied_at).
  absl::Time Apply(const std::string& document) {
    nlohmann::json body = {{"document", document}};
    auto r = testing::HttpRequest("POST", api_->http_base() + "/v1/policy", body.dump(), api_->admin_token);
    EXPECT_TRUE(r.ok() && r->status == 200) << (r.ok() ? r->body : r.status().ToString());
    auto active = store::PgPolicyRepository(pool()).Active();
    EXPECT_THAT(active, IsOk());
    return active.ok() ? active->applied_at : absl::InfinitePast();
  }

  // Milli-devices held per team at `at`, as GET /v1/fleet/summary reports them.
  std::map<std::string, int64_t> HeldByTeam(absl::Time at) {
    auto r = testing::HttpGet(absl::StrCat(api_->http_base(), "/v1/fleet/summary?cluster=c1&at=", FormatRfc3339(at)),
                              api_->admin_token);
    std::map<std::string, int64_t> out;
    if (!r.ok() || r->status != 200) {
      ADD_FAILURE() << (r.ok() ? r->body : r.status().ToString());
      return out;
    }
    auto json = nlohmann::json::parse(r->body);
    for (const auto& line : json.value("teams", nlohmann::json::array())) {
      out[line.at("team").get<std::string>()] = std::stoll(line.value("heldMilli", std::string("0")));
    }
    return out;
  }

  // The HTTP status of a team token's usage query for `ns` over [start, end).
  long UsageStatus(const std::string& token, const std::string& ns, absl::Time start, absl::Time end) {
    auto r = testing::HttpGet(absl::StrCat(api_->http_base(), "/v1/usage?cluster=c1&namespace=", ns,
                                           "&start=", FormatRfc3339(start), "&end=", FormatRfc3339(end)),
                              token);
    EXPECT_THAT(r, IsOk());
    return r.ok() ? r->status : 0;
  }

  std::string Token(const std::string& role) {
    auto token = testing::MintToken(db_->uri(), role);
    EXPECT_THAT(token, IsOk());
    return token.ok() ? *token : "";
  }
};

TEST_F(TeamAttributionTest, APodWithoutATeamLabelIsAttributedToTheTeamItsNamespaceMapsTo) {
  HoldingPod("p1", "cv-train", "", "n1/gpu0");
  HoldingPod("p2", "elsewhere", "", "n1/gpu1");
  Apply(Policy("vision"));
  EXPECT_EQ(HeldByTeam(kT0 + absl::Hours(1)), (std::map<std::string, int64_t>{{"unassigned", 1000}, {"vision", 1000}}));
}

TEST_F(TeamAttributionTest, ATeamTokenReadsItsOwnNamespacesAndNoOther) {
  HoldingPod("p1", "cv-train", "", "n1/gpu0");
  HoldingPod("p2", "elsewhere", "", "n1/gpu1");
  Apply(Policy("vision"));
  const std::string vision = Token("team:vision"), research = Token("team:research"), ads = Token("team:ads");
  EXPECT_EQ(UsageStatus(vision, "cv-train", kT0, kT0 + absl::Hours(1)), 200);
  EXPECT_EQ(UsageStatus(research, "cv-train", kT0, kT0 + absl::Hours(1)), 200);  // its subtree
  EXPECT_EQ(UsageStatus(ads, "cv-train", kT0, kT0 + absl::Hours(1)), 403);
  EXPECT_EQ(UsageStatus(vision, "elsewhere", kT0, kT0 + absl::Hours(1)), 403);
}

// The harm: a tenant labels its pod with another team's name to move its bill there.
TEST_F(TeamAttributionTest, APodLabelDoesNotMoveItsBillUnlessThePolicyTrustsIt) {
  HoldingPod("p1", "cv-train", "ads", "n1/gpu0");
  Apply(Policy("vision"));
  EXPECT_EQ(HeldByTeam(kT0 + absl::Hours(1)), (std::map<std::string, int64_t>{{"vision", 1000}}));
  EXPECT_EQ(UsageStatus(Token("team:vision"), "cv-train", kT0, kT0 + absl::Hours(1)), 200);
  // Where the policy trusts pod labels, the label decides, and the namespace is no longer vision's alone.
  Apply(Policy("vision", "trusted_pods:\n  - namespace: cv-train\n    team_label: true\n"));
  EXPECT_EQ(HeldByTeam(absl::Now() + absl::Hours(1)), (std::map<std::string, int64_t>{{"ads", 1000}}));
  EXPECT_EQ(UsageStatus(Token("team:vision"), "cv-train", absl::Now(), absl::Now() + absl::Hours(1)), 403);
}

TEST_F(TeamAttributionTest, APolicyAppliedLaterReattributesOnlyFromWhenItTookEffect) {
  HoldingPod("p1", "cv-train", "", "n1/gpu0");
  const absl::Time first = Apply(Policy("vision"));
  const absl::Time second = Apply(Policy("speech"));
  ASSERT_LE(first, second);
  const std::map<std::string, int64_t> vision = {{"vision", 1000}}, speech = {{"speech", 1000}};
  EXPECT_EQ(HeldByTeam(kT0 + absl::Hours(1)), vision);  // before any policy: the first one
  EXPECT_EQ(HeldByTeam(second - absl::Microseconds(1)), vision);
  EXPECT_EQ(HeldByTeam(second), speech);
  EXPECT_EQ(HeldByTeam(second + absl::Hours(1)), speech);
  const std::string token = Token("team:vision");
  EXPECT_EQ(UsageStatus(token, "cv-train", kT0, kT0 + absl::Hours(1)), 200);
  EXPECT_EQ(UsageStatus(token, "cv-train", second - absl::Hours(1), second + absl::Hours(1)), 403);
  EXPECT_EQ(UsageStatus(Token("team:speech"), "cv-train", second, second + absl::Hours(1)), 200);
}

}  // namespace
}  // namespace fleetcap
