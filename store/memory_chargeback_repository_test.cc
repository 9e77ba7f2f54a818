#include "store/memory_chargeback_repository.h"

#include <gtest/gtest.h>

#include "store/chargeback_contract.h"

namespace fleetcap::store {
namespace {

class MemoryChargebackTest : public ::testing::Test {
 protected:
  ChargebackWriteRepository& writer() { return repo_; }
  ChargebackReadRepository& reader() { return repo_; }

  MemoryChargebackRepository repo_;
};

FLEETCAP_CHARGEBACK_CONTRACT_TESTS(MemoryChargebackTest)

TEST(ChargebackSource, WholeDaysAndMonthsAreReadFromTheRollups) {
  using chargeback_contract::kFeb;
  using chargeback_contract::kT0;
  using chargeback_contract::Window;
  EXPECT_EQ(SourceFor(Window(kT0, kFeb), ChargebackResolution::kNone), ChargebackSource::kMonthly);
  EXPECT_EQ(SourceFor(Window(kT0, kFeb), ChargebackResolution::kMonth), ChargebackSource::kMonthly);
  EXPECT_EQ(SourceFor(Window(kT0, kFeb), ChargebackResolution::kDay), ChargebackSource::kDaily);
  EXPECT_EQ(SourceFor(Window(kT0, kFeb), ChargebackResolution::kHour), ChargebackSource::kHourly);
  // A 30-day report: thirty daily rows per group, not 720 hourly ones.
  EXPECT_EQ(SourceFor(Window(kT0 + absl::Hours(24), kT0 + absl::Hours(24 * 31)), ChargebackResolution::kNone),
            ChargebackSource::kDaily);
  EXPECT_EQ(SourceFor(Window(kT0 + absl::Hours(1), kFeb), ChargebackResolution::kDay), ChargebackSource::kHourly);
}

}  // namespace
}  // namespace fleetcap::store
