#include "store/pg_live_inventory_repository.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_instant_reads.h"
#include "store/pg_quarantine_repository.h"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

// A cluster glob (`*` any run, `?` one character; common/glob.h) as the
// pattern of SQL's LIKE, whose own wildcards and escape are escaped.
std::string LikeOfClusterGlob(const std::string& glob) {
  std::string like;
  like.reserve(glob.size());
  for (char c : glob) {
    if (c == '*') {
      like += '%';
    } else if (c == '?') {
      like += '_';
    } else {
      if (c == '%' || c == '_' || c == '\\') like += '\\';
      like += c;
    }
  }
  return like;
}

// COPY writes NULL for a null `const char*`; this keeps the text alive.
struct Text {
  explicit Text(const std::optional<absl::Time>& t) : text(t ? FormatRfc3339(*t) : ""), present(t.has_value()) {}
  const char* get() const { return present ? text.c_str() : nullptr; }
  std::string text;
  bool present;
};

constexpr const char* kTempTables = R"sql(
CREATE TEMP TABLE IF NOT EXISTS live_nodes (node text, pool text, cpu_milli bigint, memory_mib bigint,
  in_service_from timestamptz, in_service_to timestamptz, topology text, model_label_key text,
  model_label_value text, pool_label_key text) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS live_devices (device_id text, node text, device_index integer, model text,
  in_service_from timestamptz, in_service_to timestamptz) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS live_pods (pod_uid text, namespace text, name text, team text, workload_kind text,
  workload_name text, phase text, created_at timestamptz, scheduled_at timestamptz, deleted_at timestamptz,
  requested_milli bigint, unplaced boolean, node text) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS live_holds (pod_uid text, device_id text, milli integer, held_from timestamptz,
  held_to timestamptz) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS live_demands (pod_uid text, resource_name text, model text, requested_milli bigint,
  pending_from timestamptz, pending_to timestamptz) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS live_closes (kind text, key text, device_id text, from_ts timestamptz,
  to_ts timestamptz) ON COMMIT DELETE ROWS;
)sql";

// The planner's statistics of the tables a batch merges into. A new store
// has none, and a cluster's first sync multiplies a table's rows many times
// over before autovacuum's next look: its merges and triggers, and the reads
// meanwhile, would be planned for tables a fraction of their size, and chose
// a scan of the cluster's rows for each key looked up (quadratic: who held
// devices 12 s for 20,000 pods, a first sync 7 to 40 s). A batch that adds
// at least half as many rows as a table had when last analyzed (or to a table
// never analyzed) analyzes it right after its merge, in its transaction
// (ANALYZE samples the transaction's own rows): statistics stay within a
// factor of two of the rows, for a few ANALYZEs per table during a sync.
constexpr const char* kStatisticsSql = R"sql(
  SELECT relname, reltuples FROM pg_class
   WHERE oid = ANY('{nodes,devices,workloads,pods,holds,pending_demand}'::regclass[]))sql";

// The merges, in order: opens before closes, so a row opened and closed in
// one batch ends closed. $1 is the cluster.
constexpr const char* kMerges[] = {
    R"sql(INSERT INTO nodes (cluster, node, pool, cpu_milli, memory_mib, in_service_from, in_service_to,
                             accelerator_topology, model_label_key, model_label_value, pool_label_key)
          SELECT $1, node, pool, cpu_milli, memory_mib, in_service_from, in_service_to, topology, model_label_key,
                 model_label_value, pool_label_key FROM live_nodes
          ON CONFLICT (cluster, node, in_service_from) DO UPDATE SET pool = EXCLUDED.pool,
            cpu_milli = EXCLUDED.cpu_milli, memory_mib = EXCLUDED.memory_mib,
            accelerator_topology = EXCLUDED.accelerator_topology, model_label_key = EXCLUDED.model_label_key,
            model_label_value = EXCLUDED.model_label_value, pool_label_key = EXCLUDED.pool_label_key,
            in_service_to = coalesce(nodes.in_service_to, EXCLUDED.in_service_to))sql",
    R"sql(INSERT INTO devices (cluster, device_id, node, device_index, model, in_service_from, in_service_to)
          SELECT $1, device_id, node, device_index, model, in_service_from, in_service_to FROM live_devices
          ON CONFLICT (cluster, device_id, in_service_from) DO UPDATE SET node = EXCLUDED.node,
            device_index = EXCLUDED.device_index, model = EXCLUDED.model,
            in_service_to = coalesce(devices.in_service_to, EXCLUDED.in_service_to))sql",
    R"sql(INSERT INTO workloads (cluster, namespace, kind, name, team)
          SELECT DISTINCT ON (namespace, workload_kind, workload_name) $1, namespace, workload_kind, workload_name, team
            FROM live_pods ORDER BY namespace, workload_kind, workload_name
          ON CONFLICT (cluster, namespace, kind, name) DO UPDATE SET team = EXCLUDED.team
            WHERE workloads.team IS DISTINCT FROM EXCLUDED.team)sql",
    R"sql(INSERT INTO pods (cluster, pod_uid, namespace, name, team, workload_kind, workload_name, phase, created_at,
                            scheduled_at, deleted_at, requested_milli, unplaced, node)
          SELECT $1, pod_uid, namespace, name, team, workload_kind, workload_name, phase, created_at, scheduled_at,
                 deleted_at, requested_milli, unplaced, node FROM live_pods
          ON CONFLICT (cluster, pod_uid) DO UPDATE SET namespace = EXCLUDED.namespace, name = EXCLUDED.name,
            team = EXCLUDED.team, workload_kind = EXCLUDED.workload_kind, workload_name = EXCLUDED.workload_name,
            phase = EXCLUDED.phase, created_at = EXCLUDED.created_at, scheduled_at = EXCLUDED.scheduled_at,
            deleted_at = coalesce(pods.deleted_at, EXCLUDED.deleted_at), requested_milli = EXCLUDED.requested_milli,
            unplaced = EXCLUDED.unplaced, node = EXCLUDED.node)sql",
    R"sql(INSERT INTO holds (cluster, pod_uid, device_id, milli, held_from, held_to)
          SELECT $1, pod_uid, device_id, milli, held_from, held_to FROM live_holds
          ON CONFLICT (cluster, pod_uid, device_id, held_from) DO UPDATE
            SET held_to = coalesce(holds.held_to, EXCLUDED.held_to)
            WHERE holds.held_to IS NULL AND EXCLUDED.held_to IS NOT NULL)sql",
    R"sql(INSERT INTO pending_demand (cluster, pod_uid, resource_name, model, requested_milli, pending_from, pending_to)
          SELECT $1, pod_uid, resource_name, model, requested_milli, pending_from, pending_to FROM live_demands
          ON CONFLICT (cluster, pod_uid, pending_from) DO UPDATE SET resource_name = EXCLUDED.resource_name,
            model = EXCLUDED.model, requested_milli = EXCLUDED.requested_milli,
            pending_to = coalesce(pending_demand.pending_to, EXCLUDED.pending_to))sql",
    R"sql(UPDATE nodes t SET in_service_to = greatest(t.in_service_from, c.to_ts) FROM live_closes c
          WHERE c.kind = 'node' AND t.cluster = $1 AND t.node = c.key AND t.in_service_from = c.from_ts
            AND t.in_service_to IS NULL)sql",
    R"sql(UPDATE devices t SET in_service_to = greatest(t.in_service_from, c.to_ts) FROM live_closes c
          WHERE c.kind = 'device' AND t.cluster = $1 AND t.device_id = c.key AND t.in_service_from = c.from_ts
            AND t.in_service_to IS NULL)sql",
    R"sql(UPDATE holds t SET held_to = greatest(t.held_from, c.to_ts) FROM live_closes c
          WHERE c.kind = 'hold' AND t.cluster = $1 AND t.pod_uid = c.key AND t.device_id = c.device_id
            AND t.held_from = c.from_ts AND t.held_to IS NULL)sql",
    R"sql(UPDATE pending_demand t SET pending_to = greatest(t.pending_from, c.to_ts) FROM live_closes c
          WHERE c.kind = 'demand' AND t.cluster = $1 AND t.pod_uid = c.key AND t.pending_from = c.from_ts
            AND t.pending_to IS NULL)sql",
};
// The table each of the first merges inserts into (the rest close rows).
constexpr const char* kMergedTables[] = {"nodes", "devices", "workloads", "pods", "holds", "pending_demand"};
static_assert(std::string_view(kMerges[3]).substr(0, 17) == "INSERT INTO pods ");
static_assert(std::string_view(kMerges[5]).substr(0, 27) == "INSERT INTO pending_demand ");

// Whether a batch of `rows` merged into a table of `analyzed_rows` when last
// analyzed (-1: never) should analyze it (kStatisticsSql).
bool Outgrows(size_t rows, double analyzed_rows) {
  return rows > 0 && (analyzed_rows < 0 || static_cast<double>(rows) >= std::max(100.0, analyzed_rows / 2));
}

// ON CONFLICT cannot touch one row twice in a statement: keep one record per
// key (the last, except that a close is never undone).
template <typename T, typename Key>
std::vector<const T*> Unique(const std::vector<T>& records, Key key) {
  std::map<decltype(key(records[0])), size_t> last;
  for (size_t i = 0; i < records.size(); ++i) last[key(records[i])] = i;
  std::vector<const T*> out;
  out.reserve(last.size());
  for (const auto& [k, i] : last) out.push_back(&records[i]);
  return out;
}

// The nodes of a batch into live_nodes, one record per (node, in service from).
void CopyNodes(pqxx::work& txn, const std::vector<LiveNode>& nodes) {
  if (nodes.empty()) return;
  pqxx::stream_to out(
      txn, "live_nodes",
      std::vector<std::string>{"node", "pool", "cpu_milli", "memory_mib", "in_service_from", "in_service_to",
                               "topology", "model_label_key", "model_label_value", "pool_label_key"});
  for (const LiveNode* n :
       Unique(nodes, [](const LiveNode& x) { return std::make_pair(x.node.name, x.node.in_service_from); })) {
    Text to(n->node.in_service_to);
    out << std::make_tuple(n->node.name, n->node.pool, n->node.cpu_milli, n->node.memory_mib,
                           FormatRfc3339(n->node.in_service_from), to.get(), n->topology, n->model_label_key,
                           n->model_label_value, n->pool_label_key);
  }
  out.complete();
}

void Copy(pqxx::work& txn, const InventoryChanges& c) {
  CopyNodes(txn, c.nodes);
  if (!c.devices.empty()) {
    pqxx::stream_to out(
        txn, "live_devices",
        std::vector<std::string>{"device_id", "node", "device_index", "model", "in_service_from", "in_service_to"});
    for (const Device* d :
         Unique(c.devices, [](const Device& x) { return std::make_pair(x.device_id, x.in_service_from); })) {
      Text to(d->in_service_to);
      out << std::make_tuple(d->device_id, d->node, d->index, d->model, FormatRfc3339(d->in_service_from), to.get());
    }
    out.complete();
  }
  if (!c.pods.empty()) {
    pqxx::stream_to out(
        txn, "live_pods",
        std::vector<std::string>{"pod_uid", "namespace", "name", "team", "workload_kind", "workload_name", "phase",
                                 "created_at", "scheduled_at", "deleted_at", "requested_milli", "unplaced", "node"});
    for (const LivePod* lp : Unique(c.pods, [](const LivePod& x) { return x.pod.uid; })) {
      const Pod& p = lp->pod;
      Text scheduled(p.scheduled), deleted(p.deleted);
      out << std::make_tuple(p.uid, p.namespace_name, p.name, p.team, p.workload_kind, p.workload_name, p.phase,
                             FormatRfc3339(p.created), scheduled.get(), deleted.get(), p.requested_milli, p.unplaced,
                             lp->node);
    }
    out.complete();
  }
  if (!c.holds.empty()) {
    // Of several records for one hold, a closed one wins.
    std::map<std::tuple<std::string, std::string, absl::Time>, const Hold*> unique;
    for (const auto& h : c.holds) {
      auto& slot = unique[std::make_tuple(h.pod_uid, h.device_id, h.from)];
      if (slot == nullptr || !slot->to.has_value()) slot = &h;
    }
    pqxx::stream_to out(txn, "live_holds",
                        std::vector<std::string>{"pod_uid", "device_id", "milli", "held_from", "held_to"});
    for (const auto& [key, h] : unique) {
      Text to(h->to);
      out << std::make_tuple(h->pod_uid, h->device_id, h->milli, FormatRfc3339(h->from), to.get());
    }
    out.complete();
  }
  if (!c.demands.empty()) {
    pqxx::stream_to out(
        txn, "live_demands",
        std::vector<std::string>{"pod_uid", "resource_name", "model", "requested_milli", "pending_from", "pending_to"});
    for (const DemandWait* d :
         Unique(c.demands, [](const DemandWait& x) { return std::make_pair(x.pod_uid, x.from); })) {
      Text to(d->to);
      out << std::make_tuple(d->pod_uid, d->resource_name, d->model, d->requested_milli, FormatRfc3339(d->from),
                             to.get());
    }
    out.complete();
  }
  const size_t closes = c.close_nodes.size() + c.close_devices.size() + c.close_holds.size() + c.close_demands.size();
  if (closes > 0) {
    pqxx::stream_to out(txn, "live_closes", std::vector<std::string>{"kind", "key", "device_id", "from_ts", "to_ts"});
    auto write = [&](const char* kind, const std::vector<Close>& list) {
      for (const auto& x : list) {
        out << std::make_tuple(std::string(kind), x.key, x.device_id, FormatRfc3339(x.from), FormatRfc3339(x.to));
      }
    };
    write("node", c.close_nodes);
    write("device", c.close_devices);
    write("hold", c.close_holds);
    write("demand", c.close_demands);
    out.complete();
  }
}

// Each namespace's evidence replaces what was kept of it (a later entry in the batch wins).
void WriteNamespaces(pqxx::work& txn, const InventoryChanges& c) {
  for (const auto& n : c.namespaces) {
    txn.exec_params("DELETE FROM namespace_labels WHERE cluster = $1 AND namespace = $2", c.cluster, n.name);
    for (const auto& [source, values] :
         {std::make_pair("label", &n.labels), std::make_pair("annotation", &n.annotations)}) {
      for (const auto& [key, value] : *values) {
        txn.exec_params(
            "INSERT INTO namespace_labels (cluster, namespace, source, key, value) VALUES ($1, $2, $3, $4, $5)",
            c.cluster, n.name, std::string(source), key, value);
      }
    }
  }
}

std::optional<absl::Time> OptionalMicros(const pqxx::field& f) {
  if (f.is_null()) return std::nullopt;
  return MicrosField(f);
}

// Timestamps travel as integer microseconds since the epoch.

}  // namespace

absl::Status PgLiveInventoryRepository::Apply(const InventoryChanges& c) {
  FLEETCAP_RETURN_IF_ERROR(ValidateChanges(c));
  if (c.empty()) return absl::OkStatus();
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec("SET LOCAL client_min_messages = warning");
    txn.exec(kTempTables);
    txn.exec_params("INSERT INTO clusters (cluster) VALUES ($1) ON CONFLICT DO NOTHING", c.cluster);
    for (const auto& t : c.types) {
      txn.exec_params(
          "INSERT INTO accelerator_types (model, vendor, resource_name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
          t.model, t.vendor, t.resource_name);
    }
    WriteNamespaces(txn, c);
    Copy(txn, c);
    std::map<std::string, double> analyzed_rows;
    for (const auto& row : txn.exec(kStatisticsSql)) analyzed_rows[row[0].as<std::string>()] = row[1].as<double>();
    // Workloads come with their pods: as many rows at most.
    const size_t merged_rows[] = {c.nodes.size(), c.devices.size(), c.pods.size(),
                                  c.pods.size(),  c.holds.size(),   c.demands.size()};
    static_assert(std::size(merged_rows) == std::size(kMergedTables));
    for (size_t i = 0; i < std::size(kMerges); ++i) {
      txn.exec_params(kMerges[i], c.cluster);
      if (i < std::size(kMergedTables) && Outgrows(merged_rows[i], analyzed_rows[kMergedTables[i]])) {
        txn.exec(absl::StrCat("ANALYZE ", kMergedTables[i]));
      }
    }
    InsertQuarantine(txn, c.quarantine);
    txn.commit();
  } catch (const pqxx::sql_error& e) {
    // Data exceptions (class 22: a time out of range, a NUL byte, ...) and
    // integrity violations (class 23) are the records' fault, not the store's.
    const std::string state = e.sqlstate();
    if (state.rfind("22", 0) == 0 || state.rfind("23", 0) == 0) {
      return absl::InvalidArgumentError(absl::StrCat("applying ", c.size(), " inventory changes to cluster \"",
                                                     c.cluster, "\": the store refused a record: ", e.what()));
    }
    return PgError(absl::StrCat("applying ", c.size(), " inventory changes to cluster \"", c.cluster, "\""), e);
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("applying ", c.size(), " inventory changes to cluster \"", c.cluster, "\""), e);
  }
  return absl::OkStatus();
}

absl::StatusOr<LiveInventory> PgLiveInventoryRepository::LoadLive(const std::string& cluster) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  LiveInventory live;
  try {
    pqxx::read_transaction txn(*lease);
    for (const auto& r :
         txn.exec_params(absl::StrCat("SELECT node, pool, cpu_milli, memory_mib, ", EpochMicrosSql("in_service_from"),
                                      ", accelerator_topology, model_label_key, model_label_value, pool_label_key",
                                      " FROM nodes WHERE cluster = $1 AND in_service_to IS NULL"),
                         cluster)) {
      LiveNode n;
      n.node.name = r[0].as<std::string>();
      n.node.pool = r[1].as<std::string>();
      n.node.cpu_milli = r[2].as<int64_t>();
      n.node.memory_mib = r[3].as<int64_t>();
      n.node.in_service_from = MicrosField(r[4]);
      n.topology = r[5].as<std::string>();
      n.model_label_key = r[6].as<std::string>();
      n.model_label_value = r[7].as<std::string>();
      n.pool_label_key = r[8].as<std::string>();
      live.nodes.push_back(std::move(n));
    }
    for (const auto& r : txn.exec_params(
             absl::StrCat("SELECT device_id, node, device_index, model, ", EpochMicrosSql("in_service_from"),
                          " FROM devices WHERE cluster = $1 AND in_service_to IS NULL"),
             cluster)) {
      Device d;
      d.device_id = r[0].as<std::string>();
      d.node = r[1].as<std::string>();
      d.index = r[2].as<int32_t>();
      d.model = r[3].as<std::string>();
      d.in_service_from = MicrosField(r[4]);
      live.devices.push_back(std::move(d));
    }
    for (const auto& r : txn.exec_params(
             absl::StrCat("SELECT pod_uid, namespace, name, team, workload_kind, workload_name, phase, ",
                          EpochMicrosSql("created_at"), ", ", EpochMicrosSql("scheduled_at"),
                          ", requested_milli, unplaced, node", " FROM pods WHERE cluster = $1 AND deleted_at IS NULL"),
             cluster)) {
      LivePod lp;
      Pod& p = lp.pod;
      p.uid = r[0].as<std::string>();
      p.namespace_name = r[1].as<std::string>();
      p.name = r[2].as<std::string>();
      p.team = r[3].as<std::string>();
      p.workload_kind = r[4].as<std::string>();
      p.workload_name = r[5].as<std::string>();
      p.phase = r[6].as<std::string>();
      p.created = MicrosField(r[7]);
      p.scheduled = OptionalMicros(r[8]);
      p.requested_milli = r[9].as<int64_t>();
      p.unplaced = r[10].as<bool>();
      lp.node = r[11].as<std::string>();
      live.pods.push_back(std::move(lp));
    }
    for (const auto& r : txn.exec_params(
             absl::StrCat("SELECT h.pod_uid, h.device_id, h.milli, ", EpochMicrosSql("h.held_from"), ", ",
                          EpochMicrosSql("h.held_to"),
                          " FROM holds h LEFT JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid",
                          " WHERE h.cluster = $1 AND ((p.pod_uid IS NOT NULL AND p.deleted_at IS NULL)",
                          " OR h.held_to IS NULL)"),
             cluster)) {
      live.holds.push_back(Hold{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<int32_t>(), MicrosField(r[3]),
                                OptionalMicros(r[4])});
    }
    for (const auto& r : txn.exec_params(
             absl::StrCat("SELECT d.pod_uid, d.resource_name, d.model, d.requested_milli, ",
                          EpochMicrosSql("d.pending_from"), ", ", EpochMicrosSql("d.pending_to"),
                          " FROM pending_demand d LEFT JOIN pods p ON p.cluster = d.cluster AND p.pod_uid = d.pod_uid",
                          " WHERE d.cluster = $1 AND ((p.pod_uid IS NOT NULL AND p.deleted_at IS NULL)",
                          " OR d.pending_to IS NULL)"),
             cluster)) {
      live.demands.push_back(DemandWait{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                                        r[3].as<int64_t>(), MicrosField(r[4]), OptionalMicros(r[5])});
    }
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("loading the live inventory of cluster \"", cluster, "\""), e);
  }
  return live;
}

absl::StatusOr<ActivePolicyText> PgLiveInventoryRepository::ActivePolicy() {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  ActivePolicyText out;
  try {
    pqxx::read_transaction txn(*lease);
    auto rows = txn.exec("SELECT version, document FROM policies ORDER BY version DESC LIMIT 1");
    if (!rows.empty()) out = {rows[0][0].as<int32_t>(), rows[0][1].as<std::string>()};
  } catch (const std::exception& e) {
    return PgError("reading the active policy", e);
  }
  return out;
}

absl::StatusOr<std::vector<ModelCount>> PgLiveInventoryRepository::SummarizeAt(const std::string& cluster,
                                                                               absl::Time at) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    // One snapshot for the horizon and the rows it vouches for.
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::readwrite_policy::read_only> txn(*lease);
    if (!cluster.empty() && txn.exec_params("SELECT 1 FROM clusters WHERE cluster = $1", cluster).empty()) {
      return absl::NotFoundError(absl::StrCat("cluster \"", cluster, "\" is not known"));
    }
    return SummaryAtInstant(txn, cluster, at);
  } catch (const std::exception& e) {
    return PgError("summarizing the fleet", e);
  }
}

absl::StatusOr<std::map<std::string, std::string>> PgLiveInventoryRepository::SharedNodeLabels(
    const std::string& model, const std::string& pool, const std::string& cluster) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    // Every node in service with a device of `model` in service, in a
    // cluster matching `cluster` (of `pool` when given); the labels all of
    // them carry with one value.
    auto rows = txn.exec_params(R"sql(
      WITH of_model AS (
        SELECT DISTINCT n.cluster, n.node, n.pool, n.model_label_key, n.model_label_value, n.pool_label_key
          FROM nodes n JOIN devices d ON d.cluster = n.cluster AND d.node = n.node
         WHERE n.in_service_to IS NULL AND d.in_service_to IS NULL AND d.model = $1
           AND ($2 = '' OR n.pool = $2) AND n.cluster LIKE $3 ESCAPE '\'),
      labels AS (
        SELECT cluster, node, model_label_key AS key, model_label_value AS value FROM of_model
         WHERE model_label_key <> ''
        UNION ALL
        SELECT cluster, node, pool_label_key, pool FROM of_model WHERE pool_label_key <> '' AND pool <> '')
      SELECT key, min(value) FROM labels GROUP BY key
      HAVING count(DISTINCT value) = 1
         AND count(DISTINCT (cluster, node)) = (SELECT count(*) FROM of_model)
      ORDER BY key)sql",
                                model, pool, LikeOfClusterGlob(cluster));
    std::map<std::string, std::string> out;
    for (const auto& row : rows) out.emplace(row[0].as<std::string>(), row[1].as<std::string>());
    return out;
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("reading the node labels of model \"", model, "\""), e);
  }
}

}  // namespace fleetcap::store
