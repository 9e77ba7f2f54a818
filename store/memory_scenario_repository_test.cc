#include "store/memory_scenario_repository.h"

#include "store/scenario_contract.h"

namespace fleetcap::store {
namespace {

TEST(MemoryScenarioRepository, SavedScenarioReadsBackCanonically) {
  MemoryScenarioRepository repo;
  scenario_contract::SavedScenarioReadsBackCanonically(repo);
}

TEST(MemoryScenarioRepository, ListIsNewestFirstAndPages) {
  MemoryScenarioRepository repo;
  scenario_contract::ListIsNewestFirstAndPages(repo);
}

TEST(MemoryScenarioRepository, UnknownIdIsNotFound) {
  MemoryScenarioRepository repo;
  scenario_contract::UnknownIdIsNotFound(repo);
}

TEST(MemoryScenarioRepository, RefusesBadDraftsNamingTheField) {
  MemoryScenarioRepository repo;
  scenario_contract::RefusesBadDraftsNamingTheField(repo);
}

}  // namespace
}  // namespace fleetcap::store
