#include "optimizer/allocation/org_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::allocation {
namespace {

using ::testing::HasSubstr;

TEST(OrgTree, ChildrenInNameOrderAndParentsFirst) {
  auto tree = OrgTree::Build({{"zeta", "", 1}, {"alpha", "", 2}, {"z2", "zeta", 1}, {"z1", "zeta", 1}});
  ASSERT_TRUE(tree.ok()) << tree.status();
  const auto& root = tree->nodes()[0];
  ASSERT_EQ(root.children.size(), 2u);
  EXPECT_EQ(tree->nodes()[root.children[0]].name, "alpha");
  EXPECT_EQ(tree->nodes()[root.children[1]].name, "zeta");
  const auto& zeta = tree->nodes()[*tree->Find("zeta")];
  EXPECT_EQ(tree->nodes()[zeta.children[0]].name, "z1");
  EXPECT_TRUE(tree->IsLeaf(*tree->Find("alpha")));
  EXPECT_FALSE(tree->IsLeaf(*tree->Find("zeta")));
  std::vector<int> position(tree->nodes().size());
  for (size_t i = 0; i < tree->top_down().size(); ++i) position[tree->top_down()[i]] = static_cast<int>(i);
  for (size_t n = 1; n < tree->nodes().size(); ++n) EXPECT_LT(position[tree->nodes()[n].parent], position[n]);
}

TEST(OrgTree, RefusesWhatIsNotATree) {
  EXPECT_THAT(OrgTree::Build({{"a", "nowhere", 1}}).status().message(), HasSubstr("team a has an unknown parent"));
  EXPECT_THAT(OrgTree::Build({{"a", "b", 1}, {"b", "a", 1}}).status().message(), HasSubstr("is on a cycle"));
  EXPECT_THAT(OrgTree::Build({{"a", "", 1}, {"a", "", 1}}).status().message(), HasSubstr("team a is defined twice"));
  EXPECT_THAT(OrgTree::Build({{"a", "", 0}}).status().message(), HasSubstr("team a has weight 0"));
}

}  // namespace
}  // namespace fleetcap::allocation
