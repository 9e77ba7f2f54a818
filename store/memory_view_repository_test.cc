#include "store/memory_view_repository.h"

#include "store/view_contract.h"

namespace fleetcap::store {
namespace {

TEST(MemoryViewRepository, SavedViewsReadBackByNamePerOwner) {
  MemoryViewRepository repo;
  view_contract::SavedViewsReadBackByNamePerOwner(repo);
}

TEST(MemoryViewRepository, SavingANameAgainReplacesItsView) {
  MemoryViewRepository repo;
  view_contract::SavingANameAgainReplacesItsView(repo);
}

TEST(MemoryViewRepository, RemovesOnlyTheOwnersView) {
  MemoryViewRepository repo;
  view_contract::RemovesOnlyTheOwnersView(repo);
}

TEST(MemoryViewRepository, KeepsAtMostTheLimitPerOwner) {
  MemoryViewRepository repo;
  view_contract::KeepsAtMostTheLimitPerOwner(repo);
}

TEST(MemoryViewRepository, RefusesBadViewsNamingTheField) {
  MemoryViewRepository repo;
  view_contract::RefusesBadViewsNamingTheField(repo);
}

}  // namespace
}  // namespace fleetcap::store
