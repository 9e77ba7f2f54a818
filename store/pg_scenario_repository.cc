#include "store/pg_scenario_repository.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
absl::StatusOr<int64_t> PgScenarioRepository::Save(const ScenarioDraft& draft) {
  FLEETCAP_RETURN_IF_ERROR(ValidateScenarioDraft(draft));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    const int64_t id =
        txn.exec_params(
               "INSERT INTO scenarios (name, document, result, policy_version, saved_at, saved_by)"
               " VALUES ($1, $2, $3::jsonb, $4, 'epoch'::timestamptz + $5 * interval '1 microsecond', $6)"
               " RETURNING scenario_id",
               draft.name, draft.document, draft.result_json, draft.policy_version, absl::ToUnixMicros(draft.saved_at),
               draft.saved_by)[0][0]
            .as<int64_t>();
    txn.commit();
    return id;
  } catch (const std::exception& e) {
    return PgError("scenarios: saving a scenario", e);
  }
}

absl::StatusOr<std::vector<ScenarioSummary>> PgScenarioRepository::List(int64_t before_id, int64_t limit) {
  if (limit < 1 || limit > 1000) {
    return absl::InvalidArgumentError(absl::StrCat("scenario list limit: ", limit, " is outside 1..1000"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    const pqxx::result rows = txn.exec_params(
        "SELECT scenario_id, name, policy_version, (extract(epoch FROM saved_at) * 1e6)::bigint, saved_by"
        " FROM scenarios WHERE $1 <= 0 OR scenario_id < $1 ORDER BY scenario_id DESC LIMIT $2",
        before_id, limit);
    std::vector<ScenarioSummary> out;
    for (const auto& row : rows) {
      out.push_back({row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<int32_t>(), MicrosField(row[3]),
                     row[4].as<std::string>()});
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("scenarios: listing", e);
  }
}

absl::StatusOr<ScenarioRecord> PgScenarioRepository::Get(int64_t scenario_id) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    const pqxx::result rows = txn.exec_params(
        "SELECT scenario_id, name, document, result::text, policy_version,"
        " (extract(epoch FROM saved_at) * 1e6)::bigint, saved_by FROM scenarios WHERE scenario_id = $1",
        scenario_id);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("scenario ", scenario_id, ": no such saved scenario"));
    const auto& row = rows[0];
    ScenarioRecord r;
    r.scenario_id = row[0].as<int64_t>();
    r.saved.name = row[1].as<std::string>();
    r.saved.document = row[2].as<std::string>();
    r.saved.result_json = CanonicalScenarioResult(row[3].as<std::string>());
    r.saved.policy_version = row[4].as<int32_t>();
    r.saved.saved_at = MicrosField(row[5]);
    r.saved.saved_by = row[6].as<std::string>();
    return r;
  } catch (const std::exception& e) {
    return PgError("scenarios: reading a scenario", e);
  }
}

}  // namespace fleetcap::store
