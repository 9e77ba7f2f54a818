#include "store/memory_capacity_repository.h"

#include "store/capacity_contract.h"

namespace fleetcap::store {
namespace {

class MemoryCapacityTest : public ::testing::Test {
 public:
  const CapacityReadRepository& repo() { return repo_; }
  void AddDevice(std::string cluster, std::string model, absl::Time from, std::optional<absl::Time> to) {
    repo_.AddDevice(std::move(cluster), std::move(model), from, to);
  }

 private:
  MemoryCapacityRepository repo_;
};

FLEETCAP_CAPACITY_CONTRACT_TESTS(MemoryCapacityTest)

}  // namespace
}  // namespace fleetcap::store
