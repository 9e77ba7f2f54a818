#include "store/pg_allocation_run_repository.h"

#include <limits>

#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"

namespace fleetcap::store {
namespace {

// COPY writes NULL for a null `const char*`; this keeps the number's text alive.
struct OptionalMilli {
  explicit OptionalMilli(const std::optional<int64_t>& v) : text(v ? absl::StrCat(*v) : ""), present(v.has_value()) {}
  const char* get() const { return present ? text.c_str() : nullptr; }
  std::string text;
  bool present;
};

// Both reads see one snapshot, so a run never reads without its recommendations.
using SnapshotRead = pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>;

}  // namespace

absl::StatusOr<int64_t> PgAllocationRunRepository::StoreRun(const AllocationRunDraft& run) {
  FLEETCAP_RETURN_IF_ERROR(ValidateAllocationRun(run));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec("SELECT pg_advisory_xact_lock(hashtext('fleetcap.allocation_runs'))");
    const int64_t run_id =
        txn.exec_params(
               "INSERT INTO allocation_runs (computed_at, policy_version, inputs) VALUES ($1::timestamptz, $2, "
               "$3::jsonb)"
               " RETURNING run_id",
               FormatRfc3339(AllocationRunTime(run.computed_at)), run.policy_version, run.inputs_json)[0][0]
            .as<int64_t>();
    if (!run.recommendations.empty()) {
      pqxx::stream_to copy(txn, "allocation_recommendations",
                           std::vector<std::string>{"run_id", "team", "flavor", "demand_milli", "guarantee_milli",
                                                    "recommended_milli", "borrowing_limit_milli", "lending_limit_milli",
                                                    "bound_by", "explanation", "measured_demand_milli"});
      for (const AllocationRecommendationRecord& r : run.recommendations) {
        const OptionalMilli borrowing(r.borrowing_limit_milli);
        const OptionalMilli measured(r.measured_demand_milli);
        copy << std::make_tuple(run_id, r.team, r.flavor, r.demand_milli, r.guarantee_milli, r.recommended_milli,
                                borrowing.get(), r.lending_limit_milli, r.bound_by, r.explanation, measured.get());
      }
      copy.complete();
    }
    txn.commit();
    return run_id;
  } catch (const std::exception& e) {
    return PgError("allocation runs: storing a run", e);
  }
}

absl::StatusOr<std::optional<int64_t>> PgAllocationRunRepository::LatestRunId() {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    const pqxx::result rows = txn.exec("SELECT max(run_id) FROM allocation_runs");
    if (rows[0][0].is_null()) return std::optional<int64_t>();
    return std::optional<int64_t>(rows[0][0].as<int64_t>());
  } catch (const std::exception& e) {
    return PgError("allocation runs: reading the newest run's id", e);
  }
}

absl::StatusOr<std::optional<AllocationRunRecord>> PgAllocationRunRepository::LatestRun() {
  return NewestBefore(std::numeric_limits<int64_t>::max());
}

absl::StatusOr<std::optional<AllocationRunRecord>> PgAllocationRunRepository::RunBefore(int64_t run_id) {
  return NewestBefore(run_id);
}

absl::StatusOr<std::optional<AllocationRunRecord>> PgAllocationRunRepository::NewestBefore(int64_t run_id) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    SnapshotRead txn(*lease);
    const pqxx::result runs = txn.exec_params(
        "SELECT run_id, (extract(epoch FROM computed_at) * 1000000)::bigint, policy_version, inputs::text"
        " FROM allocation_runs WHERE run_id < $1 ORDER BY run_id DESC LIMIT 1",
        run_id);
    if (runs.empty()) return std::optional<AllocationRunRecord>();
    AllocationRunRecord run;
    run.run_id = runs[0][0].as<int64_t>();
    run.computed_at = absl::FromUnixMicros(runs[0][1].as<int64_t>());
    run.policy_version = runs[0][2].as<int32_t>();
    run.inputs_json = CanonicalAllocationInputs(runs[0][3].as<std::string>());
    // COLLATE "C": team then flavor by bytes, as the records promise.
    const pqxx::result rows = txn.exec_params(
        "SELECT team, flavor, demand_milli, guarantee_milli, recommended_milli, borrowing_limit_milli,"
        " lending_limit_milli, bound_by, explanation, measured_demand_milli FROM allocation_recommendations"
        " WHERE run_id = $1"
        " ORDER BY team COLLATE \"C\", flavor COLLATE \"C\"",
        run.run_id);
    txn.commit();
    run.recommendations.reserve(rows.size());
    for (const auto& row : rows) {
      AllocationRecommendationRecord r;
      r.team = row[0].as<std::string>();
      r.flavor = row[1].as<std::string>();
      r.demand_milli = row[2].as<int64_t>();
      r.guarantee_milli = row[3].as<int64_t>();
      r.recommended_milli = row[4].as<int64_t>();
      if (!row[5].is_null()) r.borrowing_limit_milli = row[5].as<int64_t>();
      r.lending_limit_milli = row[6].as<int64_t>();
      r.bound_by = row[7].as<std::string>();
      r.explanation = row[8].as<std::string>();
      if (!row[9].is_null()) r.measured_demand_milli = row[9].as<int64_t>();
      run.recommendations.push_back(std::move(r));
    }
    return std::optional<AllocationRunRecord>(std::move(run));
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("allocation runs: reading the newest run before ", run_id), e);
  }
}

}  // namespace fleetcap::store
