#include "store/memory_rightsizing_repository.h"

#include "store/rightsizing_contract.h"

namespace fleetcap::store {
namespace {

TEST(MemoryRightsizingRepository, ReplacesAClustersRunWhole) {
  MemoryRightsizingRepository repo;
  rightsizing_contract::ReplacesAClustersRunWhole(repo);
}

TEST(MemoryRightsizingRepository, SelectsByClusterNamespaceAndTeams) {
  MemoryRightsizingRepository repo;
  rightsizing_contract::SelectsByClusterNamespaceAndTeams(repo);
}

TEST(MemoryRightsizingRepository, RefusesBadRunsNamingTheField) {
  MemoryRightsizingRepository repo;
  rightsizing_contract::RefusesBadRunsNamingTheField(repo);
}

}  // namespace
}  // namespace fleetcap::store
