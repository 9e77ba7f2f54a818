#pragma once
// Closing a TCP socket with bytes from the client still unread makes the
// kernel send a reset, and a reset can destroy the answer just written before
// the client reads it: a client still sending a body the server refused
// (too large, unauthenticated, over its admission) sees "connection reset"
// instead of its 413 or 401. RFC 9112 section 9.6 asks for a lingering close
// instead: once the answer is out, shut the write side, read and discard what
// the client still sends, and close only when it stops.
//
// The HTTP server hands each connection it answers before reading its body
// to a LingeringClose as a duplicate descriptor: the server's own descriptor
// closes as usual (the socket lives on through the duplicate), and one thread
// here drains every lingering socket until the client closes its side or
// `linger` has passed, whichever is first. At most `max_sockets` linger at
// once; past that a socket is closed at once, as it was before.

#include <map>
#include <mutex>
#include <thread>

#include "absl/time/time.h"
#include "common/clock.h"

namespace fleetcap {

class LingeringClose {
 public:
  // `clock` must outlive this.
  LingeringClose(const Clock* clock, absl::Duration linger, int max_sockets);
  // Closes every socket still lingering.
  ~LingeringClose();
  LingeringClose(const LingeringClose&) = delete;
  LingeringClose& operator=(const LingeringClose&) = delete;

  // Takes `fd`, a descriptor of a connected socket that is this one's alone
  // (dup() of the server's): reads and discards from it until the client
  // closes its side or `linger` has passed, then closes it.
  void Adopt(int fd);
  // Sockets lingering now.
  int lingering() const;

 private:
  void Drain();
  void CloseExpired();

  const Clock* clock_;
  const absl::Duration linger_;
  const int max_sockets_;
  const int epoll_;   // the lingering sockets, readable or closed
  const int wakeup_;  // an eventfd: written to stop the thread
  mutable std::mutex mu_;
  std::map<int, absl::Duration> deadlines_;  // fd -> its close, on clock_->Monotonic()
  std::thread thread_;                       // started by the first Adopt
};

}  // namespace fleetcap
