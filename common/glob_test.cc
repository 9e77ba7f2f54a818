#include "common/glob.h"

#include <string>

#include <gtest/gtest.h>

namespace fleetcap {
namespace {

TEST(GlobMatch, StarIsAnyRunAndQuestionMarkOneCharacter) {
  EXPECT_TRUE(GlobMatch("gpu-*", "gpu-east"));
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("gpu-?", "gpu-1"));
  EXPECT_FALSE(GlobMatch("gpu-?", "gpu-12"));
  EXPECT_TRUE(GlobMatch("gpu_east", "gpu_east"));
  EXPECT_FALSE(GlobMatch("gpu_east", "gpuXeast"));  // `_` is itself, not any character
  EXPECT_FALSE(GlobMatch("gpu", "gpu-east"));       // the whole name
  // No exponential backtracking.
  EXPECT_FALSE(GlobMatch("*a*a*a*a*a*a*a*b", std::string(10000, 'a')));
}

}  // namespace
}  // namespace fleetcap
