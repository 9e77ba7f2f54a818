#include "common/pg_pool.h"

#include "absl/strings/str_cat.h"
#include "pqxx/except"

namespace fleetcap {

absl::Status PgError(absl::string_view context, const std::exception& e) {
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) {
    return absl::UnavailableError(absl::StrCat(context, ": database connection lost: ", e.what()));
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

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Open(const std::string& uri, int size) {
  std::unique_ptr<PgPool> pool(new PgPool(uri));
  for (int i = 0; i < size; ++i) {
    auto conn = PgConnect(uri);
    if (!conn.ok()) return conn.status();
    pool->idle_.push_back(std::move(*conn));
  }
  return pool;
}

absl::StatusOr<PgPool::Lease> PgPool::Acquire() {
  std::unique_ptr<pqxx::connection> conn;
  {
    std::unique_lock<std::mutex> lock(mu_);
    available_.wait(lock, [this] { return !idle_.empty(); });
    conn = std::move(idle_.back());
    idle_.pop_back();
  }
  if (!conn->is_open()) {
    auto fresh = PgConnect(uri_);
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
