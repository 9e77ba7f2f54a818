#pragma once
// A fixed set of threads that run the HTTP server's request handlers
// (common/http_server.h), each on a stack of kHandlerStackBytes
// (common/handler_stack.h): the event loop that reads requests never runs a
// handler, so a slow handler delays only requests queued behind it, and a
// slow client delays none.

#include <pthread.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "absl/status/status.h"

namespace fleetcap {

class HandlerPool {
 public:
  HandlerPool() = default;
  // Stops (see Stop()).
  ~HandlerPool();
  HandlerPool(const HandlerPool&) = delete;
  HandlerPool& operator=(const HandlerPool&) = delete;

  // Starts `threads` threads; an error when the system refuses one.
  absl::Status Start(int threads);
  // Runs `work` on one of the threads, in the order posted.
  void Post(std::function<void()> work);
  // Lets every thread finish the work it is running, drops what is still
  // queued and joins them. Work posted afterwards is dropped.
  void Stop();

 private:
  static void* Run(void* self);

  std::mutex mu_;
  std::condition_variable work_ready_;
  std::deque<std::function<void()>> queue_;  // guarded by mu_
  bool stopping_ = false;                    // guarded by mu_
  std::vector<pthread_t> threads_;
};

}  // namespace fleetcap
