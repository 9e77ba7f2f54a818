#include "common/handler_pool.h"

#include "absl/strings/str_cat.h"
#include "common/handler_stack.h"

namespace fleetcap {

HandlerPool::~HandlerPool() { Stop(); }

absl::Status HandlerPool::Start(int threads) {
  // std::thread cannot choose its stack size; the handlers' parsers rely on it.
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kHandlerStackBytes);
  absl::Status status;
  for (int i = 0; i < threads; ++i) {
    pthread_t thread;
    if (pthread_create(&thread, &attributes, &HandlerPool::Run, this) != 0) {
      status =
          absl::ResourceExhaustedError(absl::StrCat("cannot start request handler thread ", i + 1, " of ", threads));
      break;
    }
    threads_.push_back(thread);
  }
  pthread_attr_destroy(&attributes);
  return status;
}

void HandlerPool::Post(std::function<void()> work) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    queue_.push_back(std::move(work));
  }
  work_ready_.notify_one();
}

void HandlerPool::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  work_ready_.notify_all();
  for (pthread_t thread : threads_) pthread_join(thread, nullptr);
  threads_.clear();
}

void* HandlerPool::Run(void* self) {
  auto* pool = static_cast<HandlerPool*>(self);
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock<std::mutex> lock(pool->mu_);
      pool->work_ready_.wait(lock, [pool] { return pool->stopping_ || !pool->queue_.empty(); });
      if (pool->stopping_) return nullptr;
      work = std::move(pool->queue_.front());
      pool->queue_.pop_front();
    }
    work();
  }
}

}  // namespace fleetcap
