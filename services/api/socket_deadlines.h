#pragma once
// Ends reads that run past their deadline. civetweb's read timeout applies to
// each wait for data, so a client that sends a byte now and then would keep
// a worker reading its request body for as long as it likes. For the time a
// body is read, its connection's socket is armed here; at the deadline the
// reading side of the socket is shut down, civetweb's read returns, and the
// worker is free to answer and move on.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/time.h"

namespace fleetcap::api {

class SocketDeadlines {
 public:
  SocketDeadlines();
  ~SocketDeadlines();
  SocketDeadlines(const SocketDeadlines&) = delete;
  SocketDeadlines& operator=(const SocketDeadlines&) = delete;

  // Until Disarm(id), `fd`'s reading side is shut down once `deadline` passes.
  int64_t Arm(int fd, absl::Time deadline);
  // Whether the deadline had passed (the reading side was shut down). After
  // this returns the socket is never touched again, so its fd may be reused.
  bool Disarm(int64_t id);

 private:
  struct Armed {
    int fd;
    absl::Time deadline;
    bool fired = false;
  };
  void Run();

  std::mutex mu_;
  std::condition_variable changed_;
  std::map<int64_t, Armed> armed_;  // guarded by mu_
  int64_t next_id_ = 0;             // guarded by mu_
  bool stopping_ = false;           // guarded by mu_
  std::thread thread_;
};

// The fd of this process's TCP socket whose local port is `local_port` and
// whose peer is `peer_address`:`peer_port` (civetweb does not expose it), or
// -1 when there is none.
int FindConnectedSocket(int local_port, const std::string& peer_address, int peer_port);

}  // namespace fleetcap::api
