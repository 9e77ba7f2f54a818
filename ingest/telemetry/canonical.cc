#include "ingest/telemetry/canonical.h"

namespace fleetcap::telemetry {
namespace {

constexpr const char* kNames[kFieldCount] = {
    "util",        "gr_engine_active", "sm_active",    "tensor_active", "dram_active",
    "memory_used", "memory_free",      "memory_total", "power",         "energy",
};

}  // namespace

absl::string_view FieldName(Field field) { return kNames[static_cast<int>(field)]; }

bool ParseField(absl::string_view name, Field* field) {
  for (int i = 0; i < kFieldCount; ++i) {
    if (name == kNames[i]) {
      *field = static_cast<Field>(i);
      return true;
    }
  }
  return false;
}

}  // namespace fleetcap::telemetry
