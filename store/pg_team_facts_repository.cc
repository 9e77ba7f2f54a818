#include "store/pg_team_facts_repository.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_instant_reads.h"

namespace fleetcap::store {

absl::StatusOr<std::vector<PodTeamEvidence>> PgTeamFactsRepository::HoldersAt(const std::string& cluster,
                                                                              absl::Time at) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<PodTeamEvidence> out;
  try {
    // One snapshot for the horizon and the rows it vouches for.
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::readwrite_policy::read_only> txn(*lease);
    out = HoldersAtInstant(txn, cluster, at);
  } catch (const std::exception& e) {
    return PgError("reading who held devices", e);
  }
  return out;
}

absl::StatusOr<std::vector<PodTeamEvidence>> PgTeamFactsRepository::PodsOfNamespace(const std::string& cluster,
                                                                                    const std::string& namespace_name,
                                                                                    absl::Time start, absl::Time end) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<PodTeamEvidence> out;
  try {
    pqxx::read_transaction txn(*lease);
    auto rows = txn.exec_params(
        "SELECT DISTINCT team FROM pods WHERE cluster = $1 AND namespace = $2 AND created_at < $4::timestamptz"
        " AND (deleted_at IS NULL OR deleted_at > $3::timestamptz)",
        cluster, namespace_name, FormatRfc3339(start), FormatRfc3339(end));
    for (const auto& r : rows) out.push_back({cluster, namespace_name, r[0].as<std::string>(), 0});
  } catch (const std::exception& e) {
    return PgError("reading the pods of a namespace", e);
  }
  return out;
}

absl::StatusOr<std::map<std::pair<std::string, std::string>, NamespaceLabels>> PgTeamFactsRepository::Namespaces(
    const std::string& cluster, const std::string& namespace_name) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::map<std::pair<std::string, std::string>, NamespaceLabels> out;
  try {
    pqxx::read_transaction txn(*lease);
    auto rows = txn.exec_params(
        "SELECT cluster, namespace, source, key, value FROM namespace_labels"
        " WHERE ($1 = '' OR cluster = $1) AND ($2 = '' OR namespace = $2)",
        cluster, namespace_name);
    for (const auto& r : rows) {
      NamespaceLabels& ns = out[{r[0].as<std::string>(), r[1].as<std::string>()}];
      ns.name = r[1].as<std::string>();
      (r[2].as<std::string>() == "label" ? ns.labels : ns.annotations)[r[3].as<std::string>()] = r[4].as<std::string>();
    }
  } catch (const std::exception& e) {
    return PgError("reading namespace labels", e);
  }
  return out;
}

absl::StatusOr<std::vector<PolicyVersionRecord>> PgTeamFactsRepository::PoliciesAfter(int32_t after_version) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<PolicyVersionRecord> out;
  try {
    pqxx::read_transaction txn(*lease);
    auto rows = txn.exec_params(
        "SELECT version, document, (extract(epoch FROM applied_at) * 1000000)::bigint FROM policies"
        " WHERE version > $1 ORDER BY version",
        after_version);
    for (const auto& r : rows) {
      PolicyVersionRecord p;
      p.version = r[0].as<int32_t>();
      p.document = r[1].as<std::string>();
      p.applied_at = absl::FromUnixMicros(r[2].as<int64_t>());
      out.push_back(std::move(p));
    }
  } catch (const std::exception& e) {
    return PgError("reading policy versions", e);
  }
  return out;
}

}  // namespace fleetcap::store
