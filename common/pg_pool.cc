#include "common/pg_pool.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "pqxx/except"
#include "pqxx/nontransaction"

namespace fleetcap {

absl::Status PgError(absl::string_view context, const std::exception& e) {
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) {
    return absl::UnavailableError(absl::StrCat(context, ": database connection lost: ", e.what()));
  }
  // 57014 (query_canceled) is what statement_timeout raises.
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e); sql != nullptr && sql->sqlstate() == "57014") {
    return absl::DeadlineExceededError(
        absl::StrCat(context, ": the database statement ran past its time limit: ", e.what()));
  }
  // Class 22 (data exception: a value out of range, malformed, in the wrong
  // encoding) is the database refusing a value it was given: the caller's
  // input, not the server's fault. Its text quotes the value and the SQL, so
  // only the SQLSTATE goes into the answer.
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e);
      sql != nullptr && sql->sqlstate().rfind("22", 0) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        context, ": the database refused a value as out of range or malformed (SQLSTATE ", sql->sqlstate(), ")"));
  }
  return absl::InternalError(absl::StrCat(context, ": ", e.what()));
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgConnect(const std::string& uri) {
  try {
    return std::make_unique<pqxx::connection>(uri);
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat("--db: cannot connect: ", e.what()));
  }
}

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Open(const std::string& uri, int size, const PgPoolOptions& options) {
  std::unique_ptr<PgPool> pool(new PgPool(uri, size, options));
  for (int i = 0; i < size; ++i) {
    FLEETCAP_ASSIGN_OR_RETURN(auto conn, pool->Connect());
    pool->idle_.push_back(std::move(conn));
  }
  return pool;
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgConnect(const std::string& uri, absl::Duration statement_timeout) {
  auto conn = PgConnect(uri);
  if (!conn.ok() || statement_timeout <= absl::ZeroDuration()) return conn;
  try {
    pqxx::nontransaction txn(**conn);
    txn.exec(absl::StrCat("SET statement_timeout = ", absl::ToInt64Milliseconds(statement_timeout)));
  } catch (const std::exception& e) {
    return PgError("setting statement_timeout", e);
  }
  return conn;
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgPool::Connect() const {
  return PgConnect(uri_, options_.statement_timeout);
}

absl::StatusOr<PgPool::Lease> PgPool::Acquire() { return Acquire(options_.acquire_timeout); }

absl::StatusOr<PgPool::Lease> PgPool::Acquire(absl::Duration wait) {
  std::unique_ptr<pqxx::connection> conn;
  {
    std::unique_lock<std::mutex> lock(mu_);
    auto free = [this] { return !idle_.empty(); };
    if (wait == absl::InfiniteDuration()) {
      available_.wait(lock, free);
    } else if (!options_.clock->WaitFor(lock, available_, wait, free)) {
      return absl::UnavailableError(absl::StrCat("database: no connection free within ", absl::FormatDuration(wait),
                                                 " (all ", size_, " of the pool are in use)"));
    }
    conn = std::move(idle_.back());
    idle_.pop_back();
  }
  if (!conn->is_open()) {
    auto fresh = Connect();
    if (!fresh.ok()) {
      Release(std::move(conn));
      return fresh.status();
    }
    conn = std::move(*fresh);
  }
  return Lease(this, std::move(conn));
}

void PgPool::Release(std::unique_ptr<pqxx::connection> conn) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(conn));
  }
  available_.notify_one();
}

PgPool::Lease::~Lease() {
  if (conn_ != nullptr) pool_->Release(std::move(conn_));
}

}  // namespace fleetcap
