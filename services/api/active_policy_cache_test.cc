#include "services/api/active_policy_cache.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "services/api/auth.h"
#include "services/api/control/token_operations.h"
#include "store/memory_control_repositories.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;

const absl::Time kT0 = absl::FromUnixSeconds(1767225600);

constexpr const char* kTree = R"(version: 1
teams:
  - name: vision
  - name: vision-detect
    parent: vision
)";

constexpr const char* kGrownTree = R"(version: 1
teams:
  - name: vision
  - name: vision-detect
    parent: vision
  - name: vision-ocr
    parent: vision
)";

class ActivePolicyCacheTest : public ::testing::Test {
 protected:
  void Apply(const std::string& document) {
    store::PolicyVersionRecord record;
    record.document = document;
    record.applied_at = kT0;
    ASSERT_THAT(policies_.Apply(record, std::nullopt, store::AuditEntry{}), IsOk());
  }

  SimulatedClock clock_{kT0};
  store::MemoryAuditRepository audit_;
  store::MemoryTokenRepository tokens_{&audit_};
  store::MemoryPolicyRepository policies_{&audit_};
};

TEST_F(ActivePolicyCacheTest, NoPolicyIsVersionZeroWithNothingParsed) {
  ActivePolicyCache cache(&policies_);
  auto active = cache.Get();
  ASSERT_THAT(active, IsOk());
  EXPECT_EQ((*active)->version, 0);
  EXPECT_FALSE((*active)->valid);
  EXPECT_EQ(cache.parses(), 0);
}

TEST_F(ActivePolicyCacheTest, EachVersionIsParsedOnceAndANewVersionTakesEffect) {
  ActivePolicyCache cache(&policies_);
  Apply(kTree);
  for (int i = 0; i < 50; ++i) {
    auto active = cache.Get();
    ASSERT_THAT(active, IsOk());
    EXPECT_EQ((*active)->version, 1);
    EXPECT_EQ((*active)->document.teams.size(), 2u);
  }
  EXPECT_EQ(cache.parses(), 1);

  Apply(kGrownTree);
  auto active = cache.Get();
  ASSERT_THAT(active, IsOk());
  EXPECT_EQ((*active)->version, 2);
  EXPECT_EQ((*active)->document.teams.size(), 3u);
  EXPECT_EQ(cache.parses(), 2);
}

TEST_F(ActivePolicyCacheTest, AStoredDocumentThatNoLongerValidatesIsKeptAsInvalid) {
  ActivePolicyCache cache(&policies_);
  Apply("version: 1\nteams: [{name: a, parent: nowhere}]\n");
  auto active = cache.Get();
  ASSERT_THAT(active, IsOk());
  EXPECT_EQ((*active)->version, 1);
  EXPECT_FALSE((*active)->valid);
  ASSERT_THAT(cache.Get(), IsOk());
  EXPECT_EQ(cache.parses(), 1);
}

TEST_F(ActivePolicyCacheTest, ATeamTokenSeesTheSubtreeOfTheNewVersion) {
  Authenticator auth(&tokens_, &policies_, &clock_);
  auto created = CreateToken(&tokens_, clock_, "test", "team:vision", "", absl::Hours(1));
  ASSERT_THAT(created, IsOk());
  const std::string bearer = "Bearer " + created->secret();
  Apply(kTree);
  auto before = auth.Authenticate(bearer);
  ASSERT_THAT(before, IsOk());
  EXPECT_EQ(before->teams, (std::vector<std::string>{"vision", "vision-detect"}));
  Apply(kGrownTree);
  auto after = auth.Authenticate(bearer);
  ASSERT_THAT(after, IsOk());
  EXPECT_EQ(after->teams, (std::vector<std::string>{"vision", "vision-detect", "vision-ocr"}));
}

}  // namespace
}  // namespace fleetcap::api
