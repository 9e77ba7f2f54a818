#include "ingest/telemetry/read_deadline.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>

#include "absl/time/clock.h"

namespace fleetcap::telemetry {
namespace {

// The port and address text of a socket address, IPv4 or IPv6.
bool Describe(const sockaddr_storage& addr, std::string* host, int* port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    *port = ntohs(in->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    *port = ntohs(in6->sin6_port);
  } else {
    return false;
  }
  *host = text;
  return true;
}

}  // namespace

void ReadDeadlines::ShutDown(const std::string& remote_addr, int remote_port, int local_port) {
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return;
  while (dirent* entry = ::readdir(dir)) {
    const int fd = std::atoi(entry->d_name);
    if (fd <= 2) continue;
    sockaddr_storage peer{}, local{};
    socklen_t peer_len = sizeof peer, local_len = sizeof local;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0) continue;  // not a connected socket
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len) != 0) continue;
    std::string peer_host, local_host;
    int peer_port = 0, port = 0;
    if (!Describe(peer, &peer_host, &peer_port) || !Describe(local, &local_host, &port)) continue;
    if (peer_port == remote_port && port == local_port && peer_host == remote_addr) {
      ::shutdown(fd, SHUT_RDWR);
      break;
    }
  }
  ::closedir(dir);
}

ReadDeadlines::ReadDeadlines() : thread_([this] { Run(); }) {}

ReadDeadlines::~ReadDeadlines() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

int64_t ReadDeadlines::Watch(const std::string& remote_addr, int remote_port, int local_port, absl::Time deadline) {
  int64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ticket = next_ticket_++;
    watched_[ticket] = {remote_addr, remote_port, local_port, deadline};
  }
  changed_.notify_all();
  return ticket;
}

void ReadDeadlines::Done(int64_t ticket) {
  std::lock_guard<std::mutex> lock(mu_);
  watched_.erase(ticket);
}

void ReadDeadlines::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    absl::Time next = absl::InfiniteFuture();
    const absl::Time now = absl::Now();
    for (auto it = watched_.begin(); it != watched_.end();) {
      if (it->second.deadline <= now) {
        // The handler is still reading, so the socket is still its own.
        ShutDown(it->second.remote_addr, it->second.remote_port, it->second.local_port);
        it = watched_.erase(it);
      } else {
        next = std::min(next, it->second.deadline);
        ++it;
      }
    }
    if (next == absl::InfiniteFuture()) {
      changed_.wait(lock);
    } else {
      changed_.wait_until(lock, absl::ToChronoTime(next));
    }
  }
}

}  // namespace fleetcap::telemetry
