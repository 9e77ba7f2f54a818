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
  void AddAssetDevice(std::string cluster, Device device) { repo_.AddDevice(std::move(cluster), std::move(device)); }
  void AddHold(std::string cluster, Hold hold) { repo_.AddHold(std::move(cluster), std::move(hold)); }
  void AddPod(std::string cluster, Pod pod) { repo_.AddPod(std::move(cluster), std::move(pod)); }

 private:
  MemoryCapacityRepository repo_;
};

FLEETCAP_CAPACITY_CONTRACT_TESTS(MemoryCapacityTest)

}  // namespace
}  // namespace fleetcap::store
