#include "common/socket_deadlines.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace fleetcap {
namespace {

// Port and numeric address of a socket end, as civetweb prints them.
bool Describe(const sockaddr_storage& addr, int* port, std::string* address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    *port = ntohs(in->sin_port);
    if (address != nullptr) *address = inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    return true;
  }
  if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    *port = ntohs(in6->sin6_port);
    if (address != nullptr) *address = inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    return true;
  }
  return false;
}

// The fd of `connection`'s socket, or -1 when there is none.
int FindSocket(const TcpConnection& connection) {
  DIR* fds = opendir("/proc/self/fd");
  if (fds == nullptr) return -1;
  int found = -1;
  while (const dirent* entry = readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0') continue;
    sockaddr_storage local{}, peer{};
    socklen_t local_size = sizeof local, peer_size = sizeof peer;
    int port = 0, their_port = 0;
    std::string their_address;
    if (getsockname(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&local), &local_size) != 0 ||
        !Describe(local, &port, nullptr) || port != connection.local_port) {
      continue;
    }
    if (getpeername(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0 ||
        !Describe(peer, &their_port, &their_address) || their_port != connection.peer_port ||
        their_address != connection.peer_address) {
      continue;
    }
    found = static_cast<int>(fd);
    break;
  }
  closedir(fds);
  return found;
}

}  // namespace

SocketDeadlines::SocketDeadlines(const Clock* clock) : clock_(clock), thread_([this] { Run(); }) {}

SocketDeadlines::~SocketDeadlines() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    ++changes_;
  }
  changed_.notify_all();
  thread_.join();
}

int64_t SocketDeadlines::Arm(TcpConnection connection, absl::Time deadline) {
  int64_t id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = next_id_++;
    armed_.emplace(id, Armed{std::move(connection), deadline});
    ++changes_;
  }
  changed_.notify_all();
  return id;
}

bool SocketDeadlines::Disarm(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = armed_.find(id);
  if (it == armed_.end()) return false;
  const bool fired = it->second.fired;
  armed_.erase(it);
  return fired;
}

void SocketDeadlines::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    absl::Time next = absl::InfiniteFuture();
    const absl::Time now = clock_->Now();
    for (auto& [id, armed] : armed_) {
      if (armed.fired) continue;
      if (armed.deadline <= now) {
        // Held under mu_, so Disarm cannot return (and the socket be closed,
        // its fd reused) meanwhile: the reader is still reading.
        const int fd = FindSocket(armed.connection);
        if (fd >= 0) shutdown(fd, SHUT_RD);
        armed.fired = true;
      } else {
        next = std::min(next, armed.deadline);
      }
    }
    const uint64_t seen = changes_;
    clock_->WaitFor(lock, changed_, next - now, [&] { return changes_ != seen; });
  }
}

bool ShutDownConnection(const TcpConnection& connection) {
  const int fd = FindSocket(connection);
  if (fd < 0) return false;
  shutdown(fd, SHUT_RDWR);
  return true;
}

}  // namespace fleetcap
