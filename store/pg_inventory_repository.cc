#include "store/pg_inventory_repository.h"

#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/inventory_validation.h"

namespace fleetcap::store {
namespace {

// COPY writes NULL for a null `const char*`; this keeps the optional's text alive.
struct OptionalTime {
  explicit OptionalTime(const std::optional<absl::Time>& t)
      : text(t.has_value() ? FormatRfc3339(*t) : ""), present(t.has_value()) {}
  const char* get() const { return present ? text.c_str() : nullptr; }
  std::string text;
  bool present;
};

void CopyInventory(pqxx::work& txn, const ClusterInventory& inv) {
  const std::string& c = inv.cluster;
  {
    pqxx::stream_to out(txn, "nodes",
                        std::vector<std::string>{"cluster", "node", "pool", "cpu_milli", "memory_mib",
                                                 "in_service_from", "in_service_to"});
    for (const auto& n : inv.nodes) {
      OptionalTime to(n.in_service_to);
      out << std::make_tuple(c, n.name, n.pool, n.cpu_milli, n.memory_mib, FormatRfc3339(n.in_service_from), to.get());
    }
    out.complete();
  }
  {
    pqxx::stream_to out(txn, "devices",
                        std::vector<std::string>{"cluster", "device_id", "node", "device_index", "model",
                                                 "in_service_from", "in_service_to"});
    for (const auto& d : inv.devices) {
      OptionalTime to(d.in_service_to);
      out << std::make_tuple(c, d.device_id, d.node, d.index, d.model, FormatRfc3339(d.in_service_from), to.get());
    }
    out.complete();
  }
  {
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    pqxx::stream_to out(txn, "workloads", std::vector<std::string>{"cluster", "namespace", "kind", "name", "team"});
    for (const auto& p : inv.pods) {
      if (!seen.emplace(p.namespace_name, p.workload_kind, p.workload_name).second) continue;
      out << std::make_tuple(c, p.namespace_name, p.workload_kind, p.workload_name, p.team);
    }
    out.complete();
  }
  {
    pqxx::stream_to out(
        txn, "pods",
        std::vector<std::string>{"cluster", "pod_uid", "namespace", "name", "team", "workload_kind", "workload_name",
                                 "phase", "created_at", "scheduled_at", "deleted_at", "requested_milli", "unplaced"});
    for (const auto& p : inv.pods) {
      OptionalTime scheduled(p.scheduled), deleted(p.deleted);
      out << std::make_tuple(c, p.uid, p.namespace_name, p.name, p.team, p.workload_kind, p.workload_name, p.phase,
                             FormatRfc3339(p.created), scheduled.get(), deleted.get(), p.requested_milli, p.unplaced);
    }
    out.complete();
  }
  {
    pqxx::stream_to out(txn, "holds",
                        std::vector<std::string>{"cluster", "pod_uid", "device_id", "milli", "held_from", "held_to"});
    for (const auto& h : inv.holds) {
      OptionalTime to(h.to);
      out << std::make_tuple(c, h.pod_uid, h.device_id, h.milli, FormatRfc3339(h.from), to.get());
    }
    out.complete();
  }
}

}  // namespace

absl::Status PgInventoryRepository::ReplaceClusterInventory(const ClusterInventory& inv) {
  FLEETCAP_RETURN_IF_ERROR(ValidateInventory(inv));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", inv.cluster);
    for (const auto& t : inv.types) {
      txn.exec_params(
          "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES ($1, $2, $3) "
          "ON CONFLICT (model) DO UPDATE SET vendor = EXCLUDED.vendor, resource_name = EXCLUDED.resource_name",
          t.model, t.vendor, t.resource_name);
    }
    for (const char* table : {"holds", "pods", "workloads", "devices", "nodes"}) {
      txn.exec_params(absl::StrCat("DELETE FROM ", table, " WHERE cluster = $1"), inv.cluster);
    }
    CopyInventory(txn, inv);
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("storing the inventory of cluster \"", inv.cluster, "\""), e);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ModelCount>> PgInventoryRepository::SummarizeAt(const std::string& cluster, absl::Time at) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    if (!cluster.empty() && txn.exec_params("SELECT 1 FROM clusters WHERE cluster = $1", cluster).empty()) {
      return absl::NotFoundError(absl::StrCat("cluster \"", cluster, "\" is not known"));
    }
    // Held milli-devices count only on devices in service at the instant.
    auto rows = txn.exec_params(R"sql(
      WITH in_service AS (
        SELECT cluster, device_id, model FROM devices
         WHERE ($1 = '' OR cluster = $1)
           AND in_service_from <= $2::timestamptz
           AND (in_service_to IS NULL OR in_service_to > $2::timestamptz)),
      held AS (
        SELECT cluster, device_id, sum(milli) AS milli FROM holds
         WHERE ($1 = '' OR cluster = $1)
           AND held_from <= $2::timestamptz
           AND (held_to IS NULL OR held_to > $2::timestamptz)
         GROUP BY cluster, device_id)
      SELECT s.model, count(*), coalesce(sum(h.milli), 0)
        FROM in_service s LEFT JOIN held h USING (cluster, device_id)
       GROUP BY s.model ORDER BY s.model)sql",
                                cluster, FormatRfc3339(at));
    std::vector<ModelCount> out;
    for (const auto& row : rows) {
      out.push_back(ModelCount{row[0].as<std::string>(), row[1].as<int64_t>(), row[2].as<int64_t>()});
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("summarizing the fleet", e);
  }
}

}  // namespace fleetcap::store
