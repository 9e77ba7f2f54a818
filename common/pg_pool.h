#pragma once
// A fixed-size pool of PostgreSQL connections shared by request handlers.
// Thread-safe. A connection found broken is replaced on its next lease, so a
// restarted server costs one failed request per connection, not an outage.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "pqxx/connection"

namespace fleetcap {

// Turns an exception thrown by libpqxx into a Status naming `context`:
// a lost connection is UNAVAILABLE, anything else INTERNAL.
absl::Status PgError(absl::string_view context, const std::exception& e);

// Opens one connection, as a Status rather than an exception.
absl::StatusOr<std::unique_ptr<pqxx::connection>> PgConnect(const std::string& uri);

class PgPool {
 public:
  static absl::StatusOr<std::unique_ptr<PgPool>> Open(const std::string& uri, int size);

  // Exclusive use of one connection until the lease is destroyed.
  class Lease {
   public:
    Lease(PgPool* pool, std::unique_ptr<pqxx::connection> conn)
        : pool_(pool), conn_(std::move(conn)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    pqxx::connection& operator*() { return *conn_; }
    pqxx::connection* operator->() { return conn_.get(); }

   private:
    PgPool* pool_;
    std::unique_ptr<pqxx::connection> conn_;
  };

  // Blocks until a connection is free; reconnects one that has broken.
  absl::StatusOr<Lease> Acquire();

 private:
  explicit PgPool(std::string uri) : uri_(std::move(uri)) {}
  void Release(std::unique_ptr<pqxx::connection> conn);

  const std::string uri_;
  std::mutex mu_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;  // guarded by mu_
};

}  // namespace fleetcap
