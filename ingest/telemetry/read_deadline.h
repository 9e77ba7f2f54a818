#pragma once
// Read deadlines for the remote_write receiver's connections. civetweb
// bounds each wait for data, but a client that sends a byte now and then
// keeps a read going, and its thread, for as long as it likes. A request
// being read is watched here; once its deadline passes, its socket is shut
// down, which ends the read at once. Thread-safe.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/time.h"

namespace fleetcap::telemetry {

class ReadDeadlines {
 public:
  ReadDeadlines();
  ~ReadDeadlines();

  // Watches the connection from `remote_addr`:`remote_port` to local port
  // `local_port` until Done(ticket).
  int64_t Watch(const std::string& remote_addr, int remote_port, int local_port, absl::Time deadline);
  void Done(int64_t ticket);

  // Shuts down this process's TCP socket from `remote_addr`:`remote_port`
  // to `local_port` now: an answer written is still sent, and whatever the
  // client goes on sending is not read.
  static void ShutDown(const std::string& remote_addr, int remote_port, int local_port);

 private:
  struct Watched {
    std::string remote_addr;
    int remote_port;
    int local_port;
    absl::Time deadline;
  };
  void Run();

  std::mutex mu_;
  std::condition_variable changed_;
  std::map<int64_t, Watched> watched_;  // guarded by mu_
  int64_t next_ticket_ = 0;             // guarded by mu_
  bool stopping_ = false;               // guarded by mu_
  std::thread thread_;
};

}  // namespace fleetcap::telemetry
