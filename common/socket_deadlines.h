#pragma once
// Ends reads that run past their deadline, for the civetweb servers.
// civetweb's read timeout applies to each wait for data, so a client that
// sends a byte now and then would keep a worker reading its request body for
// as long as it likes. For the time a body is read, its connection is armed
// here; at the deadline a watcher thread shuts down the reading side of the
// connection's socket, civetweb's read returns, and the worker can still
// write its answer and move on. Thread-safe.
//
// civetweb does not expose a connection's socket, so a connection is named
// as mg_request_info names it, and its socket is looked up in /proc/self/fd
// only when it is to be shut down.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/time.h"
#include "common/clock.h"

namespace fleetcap {

// This process's TCP connection to `local_port` from `peer_address`:`peer_port`.
struct TcpConnection {
  int local_port = 0;
  std::string peer_address;  // numeric, as civetweb prints it
  int peer_port = 0;
};

class SocketDeadlines {
 public:
  // Deadlines are on `clock`, which must outlive this.
  explicit SocketDeadlines(const Clock* clock);
  ~SocketDeadlines();
  SocketDeadlines(const SocketDeadlines&) = delete;
  SocketDeadlines& operator=(const SocketDeadlines&) = delete;

  // Until Disarm(id), `connection`'s reading side is shut down once `deadline` passes.
  int64_t Arm(TcpConnection connection, absl::Time deadline);
  // Whether the deadline passed while armed (the reading side was shut
  // down). After this returns the socket is never touched again, so its fd
  // may be reused.
  bool Disarm(int64_t id);

 private:
  struct Armed {
    TcpConnection connection;
    absl::Time deadline;
    bool fired = false;
  };
  void Run();

  const Clock* clock_;
  std::mutex mu_;
  std::condition_variable changed_;
  uint64_t changes_ = 0;            // an arming or the stop; guarded by mu_
  std::map<int64_t, Armed> armed_;  // guarded by mu_
  int64_t next_id_ = 0;             // guarded by mu_
  bool stopping_ = false;           // guarded by mu_
  std::thread thread_;
};

// Shuts `connection` down both ways now: an answer already written is still
// sent, and whatever the client goes on sending is not read. Returns whether
// the connection was found.
bool ShutDownConnection(const TcpConnection& connection);

}  // namespace fleetcap
