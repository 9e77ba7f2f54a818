#pragma once
// The behaviour every OptimizerStateRepository promises, as test steps
// shared by the in-memory form's unit test and the PostgreSQL integration
// test. The fixture's `repo()` is a fresh repository over an empty store.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/optimizer_state_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store::optimizer_state_contract {

using ::fleetcap::testing::IsOk;

inline void BeforeAnyVersionIsSeenTheLastIsZero(OptimizerStateRepository& repo) {
  auto none = repo.LastPolicyVersion();
  ASSERT_THAT(none, IsOk());
  EXPECT_EQ(*none, 0);
}

// Each SeenPolicyVersion replaces the one remembered, whatever its number.
inline void TheLastVersionSeenIsRemembered(OptimizerStateRepository& repo) {
  for (int32_t version : {3, 5, 2, 0, 7}) {
    ASSERT_THAT(repo.SeenPolicyVersion(version), IsOk());
    auto last = repo.LastPolicyVersion();
    ASSERT_THAT(last, IsOk());
    EXPECT_EQ(*last, version);
  }
  auto again = repo.LastPolicyVersion();
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(*again, 7) << "reading does not change it";
}

}  // namespace fleetcap::store::optimizer_state_contract

// Instantiates the contract as tests of fixture `Fixture`, whose `repo()` is
// a fresh repository over an empty store per test.
#define FLEETCAP_OPTIMIZER_STATE_CONTRACT_TESTS(Fixture)                                      \
  TEST_F(Fixture, BeforeAnyVersionIsSeenTheLastIsZero) {                                      \
    ::fleetcap::store::optimizer_state_contract::BeforeAnyVersionIsSeenTheLastIsZero(repo()); \
  }                                                                                           \
  TEST_F(Fixture, TheLastVersionSeenIsRemembered) {                                           \
    ::fleetcap::store::optimizer_state_contract::TheLastVersionSeenIsRemembered(repo());      \
  }
