#include "store/pg_view_repository.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {

absl::Status PgViewRepository::Save(const SavedView& view) {
  FLEETCAP_RETURN_IF_ERROR(ValidateSavedView(view));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    // One owner's saves one at a time, so that two at once cannot both
    // find room for one more view.
    txn.exec_params("SELECT pg_advisory_xact_lock(hashtext('saved_views'), hashtext($1))", view.owner);
    const int64_t others =
        txn.exec_params("SELECT count(*) FROM saved_views WHERE owner = $1 AND name <> $2", view.owner, view.name)[0][0]
            .as<int64_t>();
    if (others >= static_cast<int64_t>(kMaxViewsPerOwner)) {
      return absl::ResourceExhaustedError(
          absl::StrCat("views: ", others, " saved already, the most a token keeps; remove one first"));
    }
    txn.exec_params(
        "INSERT INTO saved_views (owner, name, path, query, saved_at)"
        " VALUES ($1, $2, $3, $4, 'epoch'::timestamptz + $5 * interval '1 microsecond')"
        " ON CONFLICT (owner, name) DO UPDATE SET path = excluded.path, query = excluded.query,"
        " saved_at = excluded.saved_at",
        view.owner, view.name, view.path, view.query, absl::ToUnixMicros(view.saved_at));
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("saved views: saving a view", e);
  }
}

absl::StatusOr<std::vector<SavedView>> PgViewRepository::List(const std::string& owner) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    const pqxx::result rows = txn.exec_params(
        "SELECT name, path, query, (extract(epoch FROM saved_at) * 1e6)::bigint FROM saved_views"
        " WHERE owner = $1 ORDER BY name COLLATE \"C\"",
        owner);
    std::vector<SavedView> out;
    for (const auto& row : rows) {
      out.push_back(
          {owner, row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>(), MicrosField(row[3])});
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("saved views: listing", e);
  }
}

absl::Status PgViewRepository::Remove(const std::string& owner, const std::string& name) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    const pqxx::result gone =
        txn.exec_params("DELETE FROM saved_views WHERE owner = $1 AND name = $2 RETURNING 1", owner, name);
    txn.commit();
    if (gone.empty()) return absl::NotFoundError("view: no saved view of that name");
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("saved views: removing a view", e);
  }
}

}  // namespace fleetcap::store
