#pragma once
// A fixed-size pool of PostgreSQL connections shared by request handlers.
// Thread-safe. A connection found broken is replaced on its next lease, so a
// restarted server costs one failed request per connection, not an outage.
// A server can bound both how long a request waits for a free connection and
// how long any one statement may run (PgPoolOptions), so a slow database or a
// burst of requests is a clear error rather than a hang.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "pqxx/connection"

namespace fleetcap {

// A PostgreSQL session. Outside store/ code holds connections only under this
// name: the SQL, and libpqxx itself, stay in store/.
using PgConnection = pqxx::connection;

// Turns an exception thrown by libpqxx into a Status naming `context`:
// a lost connection is UNAVAILABLE, a statement cancelled by the statement
// timeout DEADLINE_EXCEEDED, a value the database refuses (SQLSTATE class 22)
// INVALID_ARGUMENT without the database's text, anything else INTERNAL.
absl::Status PgError(absl::string_view context, const std::exception& e);

// Opens one connection, as a Status rather than an exception.
absl::StatusOr<std::unique_ptr<pqxx::connection>> PgConnect(const std::string& uri);
// The same with PostgreSQL's statement_timeout set on the session (zero: none).
absl::StatusOr<std::unique_ptr<pqxx::connection>> PgConnect(const std::string& uri, absl::Duration statement_timeout);

struct PgPoolOptions {
  // How long Acquire() waits for a free connection before UNAVAILABLE.
  absl::Duration acquire_timeout = absl::InfiniteDuration();
  // PostgreSQL's statement_timeout on every connection; zero: none.
  absl::Duration statement_timeout = absl::ZeroDuration();
  // What Acquire() waits on; must outlive the pool.
  const Clock* clock = RealClock::Instance();
};

class PgPool {
 public:
  static absl::StatusOr<std::unique_ptr<PgPool>> Open(const std::string& uri, int size,
                                                      const PgPoolOptions& options = {});

  // Exclusive use of one connection until the lease is destroyed.
  class Lease {
   public:
    Lease(PgPool* pool, std::unique_ptr<pqxx::connection> conn) : pool_(pool), conn_(std::move(conn)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    pqxx::connection& operator*() { return *conn_; }
    pqxx::connection* operator->() { return conn_.get(); }

   private:
    PgPool* pool_;
    std::unique_ptr<pqxx::connection> conn_;
  };

  // Waits up to the pool's acquire_timeout for a free connection (UNAVAILABLE
  // after it, naming the wait and the pool size); reconnects one that has broken.
  absl::StatusOr<Lease> Acquire();
  // The same with its own bound on the wait.
  absl::StatusOr<Lease> Acquire(absl::Duration wait);

 private:
  PgPool(std::string uri, int size, PgPoolOptions options) : uri_(std::move(uri)), size_(size), options_(options) {}
  // A new connection with the pool's session settings.
  absl::StatusOr<std::unique_ptr<pqxx::connection>> Connect() const;
  void Release(std::unique_ptr<pqxx::connection> conn);

  const std::string uri_;
  const int size_;
  const PgPoolOptions options_;
  std::mutex mu_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;  // guarded by mu_
};

}  // namespace fleetcap
