#include "common/lingering_close.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

namespace fleetcap {
namespace {

// How often expired sockets are looked for when none is readable.
constexpr absl::Duration kSweep = absl::Milliseconds(100);
// Read from one socket per turn, so that a fast sender cannot hold the
// thread from the others (epoll reports it again while bytes remain).
constexpr size_t kReadPerTurn = 1 << 20;

}  // namespace

LingeringClose::LingeringClose(const Clock* clock, absl::Duration linger, int max_sockets)
    : clock_(clock),
      linger_(linger),
      max_sockets_(max_sockets),
      epoll_(epoll_create1(EPOLL_CLOEXEC)),
      wakeup_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  epoll_event stop{};
  stop.events = EPOLLIN;
  stop.data.fd = wakeup_;
  epoll_ctl(epoll_, EPOLL_CTL_ADD, wakeup_, &stop);
}

LingeringClose::~LingeringClose() {
  const uint64_t one = 1;
  if (write(wakeup_, &one, sizeof one) < 0) {
    // Nothing to do: the thread then ends at its next sweep of an empty set.
  }
  if (thread_.joinable()) thread_.join();
  for (const auto& [fd, deadline] : deadlines_) close(fd);
  close(wakeup_);
  close(epoll_);
}

void LingeringClose::Adopt(int fd) {
  std::lock_guard<std::mutex> lock(mu_);
  epoll_event readable{};
  readable.events = EPOLLIN | EPOLLRDHUP;
  readable.data.fd = fd;
  if (static_cast<int>(deadlines_.size()) >= max_sockets_ || epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &readable) != 0) {
    close(fd);
    return;
  }
  deadlines_[fd] = clock_->Monotonic() + linger_;
  if (!thread_.joinable()) thread_ = std::thread([this] { Drain(); });
}

int LingeringClose::lingering() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(deadlines_.size());
}

void LingeringClose::Drain() {
  std::vector<epoll_event> events(64);
  std::vector<char> discarded(64 * 1024);
  while (true) {
    const int ready = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()),
                                 static_cast<int>(absl::ToInt64Milliseconds(kSweep)));
    if (ready < 0 && errno != EINTR) return;
    for (int i = 0; i < std::max(ready, 0); ++i) {
      const int fd = events[i].data.fd;
      if (fd == wakeup_) return;
      ssize_t n = 0;
      for (size_t read = 0; read < kReadPerTurn; read += static_cast<size_t>(n)) {
        n = recv(fd, discarded.data(), discarded.size(), MSG_DONTWAIT);
        if (n <= 0) break;
      }
      // 0: the client closed its side; an error other than "nothing now": gone.
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        std::lock_guard<std::mutex> lock(mu_);
        epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
        deadlines_.erase(fd);
        close(fd);
      }
    }
    CloseExpired();
  }
}

void LingeringClose::CloseExpired() {
  const absl::Duration now = clock_->Monotonic();
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = deadlines_.begin(); it != deadlines_.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    epoll_ctl(epoll_, EPOLL_CTL_DEL, it->first, nullptr);
    close(it->first);
    it = deadlines_.erase(it);
  }
}

}  // namespace fleetcap
