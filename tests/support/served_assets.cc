#include "tests/support/served_assets.h"

#include <vector>

#include "common/pg_pool.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_live_inventory_repository.h"

namespace fleetcap::testing {
namespace {

absl::Time AssetInstant(const char* text) { return *ParseRfc3339("at", text); }

store::LivePod AssetPod(const std::string& uid, const std::string& ns, const std::string& name) {
  store::LivePod live;
  live.pod.uid = uid;
  live.pod.namespace_name = ns;
  live.pod.name = name;
  live.pod.workload_kind = "Job";
  live.pod.workload_name = name + "-job";
  live.pod.created = AssetInstant("2026-01-30T00:00:00Z");
  return live;
}

}  // namespace

absl::Status StoreAssetInventory(const std::string& db_uri) {
  FLEETCAP_ASSIGN_OR_RETURN(auto pool, PgPool::Open(db_uri, 1));
  store::PgLiveInventoryRepository inventory(pool.get());
  const auto at = AssetInstant;
  const std::vector<store::AcceleratorType> types = {
      {"A100", "nvidia", "nvidia.com/gpu"}, {"H100", "nvidia", "nvidia.com/gpu"}, {"T4", "nvidia", "nvidia.com/gpu"}};
  store::InventoryChanges c1;
  c1.cluster = "c1";
  c1.types = types;
  c1.devices = {{"g0", "n1", 0, "A100", at("2026-01-30T00:00:00Z"), std::nullopt},
                {"g1", "n1", 1, "A100", at("2026-01-31T21:15:30Z"), at("2026-02-01T02:40:00Z")},
                {"g1", "n1", 1, "A100", at("2026-02-01T03:10:00Z"), std::nullopt},
                {"g2", "n4", 0, "A100", at("2026-01-30T00:00:00Z"), std::nullopt},
                {"h0", "n2", 0, "H100", at("2026-01-31T19:00:00Z"), at("2026-02-01T01:00:00Z")}};
  c1.pods = {AssetPod("u1", "vision-ns", "train-0"), AssetPod("u2", "ads-ns", "rank-0"),
             AssetPod("u3", "vision-ns", "serve-0")};
  c1.holds = {{"u1", "g0", 500, at("2026-01-31T18:00:00Z"), at("2026-01-31T23:30:00Z")},
              {"u2", "g0", 500, at("2026-01-31T22:00:00Z"), std::nullopt},
              {"u3", "g1", 1000, at("2026-02-01T00:00:00Z"), at("2026-02-01T03:30:00Z")},
              {"u3", "h0", 250, at("2026-01-31T20:45:00Z"), at("2026-02-01T00:15:00Z")}};
  FLEETCAP_RETURN_IF_ERROR(inventory.Apply(c1));
  store::InventoryChanges c2;
  c2.cluster = "c2";
  c2.types = types;
  c2.devices = {{"t0", "n3", 0, "T4", at("2026-01-31T22:30:00Z"), std::nullopt},
                {"t1", "n3", 1, "T4", at("2026-01-01T00:00:00Z"), at("2026-01-02T00:00:00Z")}};
  c2.pods = {AssetPod("v1", "vision-ns", "infer-0")};
  c2.holds = {{"v1", "t0", 1000, at("2026-01-31T23:00:00Z"), at("2026-02-01T01:00:00Z")}};
  return inventory.Apply(c2);
}

std::vector<store::DeviceHourRecord> AssetDevicesHeld() {
  std::vector<store::DeviceHourRecord> devices;
  for (int h = 0; h < (kChargebackEnd - kChargebackStart) / absl::Hours(1); ++h) {
    const absl::Time hour = kChargebackStart + absl::Hours(h);
    devices.push_back({hour, "c1", "A100", "n1", "g0", 1'800'000, 900'000 + h * 1000, 1'800'000});
    devices.push_back({hour, "c1", "A100", "n4", "g2", 900'000, 450'000, 450'000});
  }
  return devices;
}

absl::Status StoreDevicesHeld(const std::string& db_uri, const std::vector<store::ChargebackLineRecord>& lines) {
  store::ChargebackHours c1;
  for (const store::ChargebackLineRecord& line : lines) {
    if (line.cluster == "c1") c1.lines.push_back(line);
  }
  c1.devices = AssetDevicesHeld();
  FLEETCAP_ASSIGN_OR_RETURN(auto pool, PgPool::Open(db_uri, 1));
  store::PgChargebackRepository chargeback(pool.get());
  return chargeback.ReplaceHours("c1", kChargebackStart, kChargebackEnd, c1);
}

absl::StatusOr<std::unique_ptr<ServedChargeback>> ServeAssets(const std::string& api_bin) {
  FLEETCAP_ASSIGN_OR_RETURN(auto served, ServeChargeback(api_bin));
  FLEETCAP_RETURN_IF_ERROR(StoreAssetInventory(served->db->uri()));
  FLEETCAP_RETURN_IF_ERROR(StoreDevicesHeld(served->db->uri(), served->lines));
  return served;
}

}  // namespace fleetcap::testing
