// The HTTP front of fleetcap-api against slow clients (docs/benchmarks.md,
// issue 28): CONNECTIONS connections each send a partial request line and
// then one header byte every 5 s, while CLIENTS threads make normal
// authenticated requests (GET /v1/tokens/self) for SECONDS seconds. Prints
// the normal requests' p50/p99/max latency and errors, how many slow
// connections the server still holds open, and the API's resident memory
// before and during the load.
//
//   slow_connections_bench [--connections N] [--clients N] [--seconds N] [--api PATH]
//
// --api: the fleetcap-api to measure (default: this build's), so that another
// build (the one before a change) is measured on the same machine in the same
// session.
//
// Each connection is a file descriptor in this process and in the API: the
// benchmark raises its soft limit of open files to the hard limit, which the
// API inherits (and raises again itself); CONNECTIONS must stay below it
// (`ulimit -Hn`). The slow connections come from 127.0.0.2 and up, 1,000 per
// address, below the API's cap per client address; the normal clients from
// 127.0.0.1.

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "pqxx/pqxx"
#include "store/migrator.h"
#include "tests/bench/bench_postgres.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"

namespace fleetcap::bench {
namespace {

struct Settings {
  int64_t connections = 10000;
  int64_t clients = 8;
  int64_t seconds = 30;
  std::string api = fleetcap::testing::kApiBin;
};

bool Parse(int argc, char** argv, Settings* s) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--api") == 0) {
      s->api = argv[i + 1];
      continue;
    }
    int64_t* target = nullptr;
    if (std::strcmp(argv[i], "--connections") == 0) target = &s->connections;
    if (std::strcmp(argv[i], "--clients") == 0) target = &s->clients;
    if (std::strcmp(argv[i], "--seconds") == 0) target = &s->seconds;
    if (target == nullptr || !absl::SimpleAtoi(argv[i + 1], target) || *target < 0) {
      std::fprintf(stderr, "slow_connections_bench: bad flag %s %s\n", argv[i], argv[i + 1]);
      return false;
    }
  }
  return argc % 2 == 1;
}

// The process's resident memory, in MiB, from /proc.
double ResidentMiB(pid_t pid) {
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return -1;
}

// The process's open file descriptors.
int OpenFiles(pid_t pid) {
  DIR* dir = opendir(absl::StrCat("/proc/", pid, "/fd").c_str());
  if (dir == nullptr) return -1;
  int n = 0;
  while (readdir(dir) != nullptr) ++n;
  closedir(dir);
  return n - 2;
}

// A non-blocking connection to 127.0.0.1:`port` from 127.0.0.`source`; -1 when refused at once.
int ConnectFrom(int source, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  sockaddr_in from{};
  from.sin_family = AF_INET;
  from.sin_addr.s_addr = htonl(0x7f000000u + static_cast<uint32_t>(source));
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      (connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0 && errno != EINPROGRESS)) {
    close(fd);
    return -1;
  }
  return fd;
}

// The slow clients: each sends its partial request once connected, then a
// header byte every 5 s; one that the server closes is counted, not reopened.
class SlowClients {
 public:
  SlowClients(int64_t count, int port) {
    for (int64_t i = 0; i < count; ++i) {
      const int fd = ConnectFrom(2 + static_cast<int>(i / 1000), port);
      if (fd >= 0) conns_.push_back({fd, false});
    }
    thread_ = std::thread([this] { Run(); });
  }
  ~SlowClients() {
    stop_ = true;
    thread_.join();
    for (const Conn& c : conns_) close(c.fd);
  }
  int64_t opened() const { return static_cast<int64_t>(conns_.size()); }
  int64_t open() const { return open_.load(); }
  int64_t rounds() const { return rounds_.load(); }

 private:
  struct Conn {
    int fd;
    bool started;  // the partial request line is sent
    bool closed = false;
  };
  void Run() {
    static const std::string kStart = "GET /v1/tokens/self HTTP/1.1\r\nHost: fleetcap\r\nX-Slow: ";
    while (!stop_) {
      // One round every 5 s, its sends spread over the round.
      const absl::Time round_start = absl::Now();
      int64_t open = 0;
      for (size_t i = 0; i < conns_.size() && !stop_; ++i) {
        Conn& c = conns_[i];
        if (!c.closed) {
          const std::string& data = c.started ? std::string("x") : kStart;
          const ssize_t n = send(c.fd, data.data(), data.size(), MSG_NOSIGNAL);
          if (n > 0 && !c.started) c.started = true;  // a partial start is finished by the header bytes
          if (n < 0 && errno != EAGAIN && errno != ENOTCONN && errno != EINPROGRESS) c.closed = true;
          char buffer[512];
          const ssize_t r = recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
          if (r == 0 || (r < 0 && errno != EAGAIN && errno != ENOTCONN)) c.closed = true;
          if (!c.closed) ++open;
        }
        if (i % 100 == 99) {
          const absl::Time due = round_start + absl::Seconds(5) * static_cast<double>(i + 1) / conns_.size();
          if (due > absl::Now()) absl::SleepFor(due - absl::Now());
        }
      }
      open_ = open;
      ++rounds_;
      if (round_start + absl::Seconds(5) > absl::Now()) absl::SleepFor(round_start + absl::Seconds(5) - absl::Now());
    }
  }

  std::vector<Conn> conns_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> open_{0};
  std::atomic<int64_t> rounds_{0};
  std::thread thread_;
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

int Main(int argc, char** argv) {
  Settings s;
  if (!Parse(argc, argv, &s)) {
    std::fprintf(stderr, "usage: slow_connections_bench [--connections N] [--clients N] [--seconds N] [--api PATH]\n");
    return 2;
  }
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
  std::printf("open files limit %llu (inherited by the API)\n", static_cast<unsigned long long>(limit.rlim_cur));
  if (static_cast<rlim_t>(s.connections) + 200 > limit.rlim_cur) {
    std::fprintf(stderr, "slow_connections_bench: --connections %lld needs a limit of open files above it\n",
                 static_cast<long long>(s.connections));
    return 2;
  }
  auto postgres = BenchPostgres::Start("slowbench", fleetcap::testing::SourcePath("scripts/pg.sh"));
  if (postgres == nullptr) return 1;
  try {
    pqxx::connection conn(postgres->uri());
    if (auto st = store::Migrator().EnsureCurrent(conn, true); !st.ok()) {
      std::cerr << st << "\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "slow_connections_bench: " << e.what() << "\n";
    return 1;
  }
  auto api = testing::StartApi(s.api, postgres->uri());
  if (!api.ok()) {
    std::cerr << "slow_connections_bench: " << api.status() << "\n";
    return 1;
  }
  const pid_t pid = api->process->pid();
  const std::string url = api->http_base() + "/v1/tokens/self";
  std::printf("api %s\nresident before: %.1f MiB\n", s.api.c_str(), ResidentMiB(pid));

  SlowClients slow(s.connections, api->http_port);
  absl::SleepFor(absl::Seconds(6));  // one round: every slow connection has sent its partial request
  std::printf("slow connections: %lld opened, %lld open after a round; API: %d open files, %.1f MiB resident\n",
              static_cast<long long>(slow.opened()), static_cast<long long>(slow.open()), OpenFiles(pid),
              ResidentMiB(pid));
  std::fflush(stdout);

  std::atomic<int64_t> errors{0};
  std::vector<std::vector<double>> latencies(s.clients);
  std::vector<std::thread> clients;
  const absl::Time end = absl::Now() + absl::Seconds(s.seconds);
  for (int64_t c = 0; c < s.clients; ++c) {
    clients.emplace_back([&, c] {
      while (absl::Now() < end) {
        const absl::Time start = absl::Now();
        auto got = testing::HttpGet(url, api->admin_token);
        const double ms = absl::ToDoubleMilliseconds(absl::Now() - start);
        if (!got.ok() || got->status != 200) ++errors;
        latencies[c].push_back(ms);
      }
    });
  }
  double peak = 0;
  while (absl::Now() < end) {
    peak = std::max(peak, ResidentMiB(pid));
    absl::SleepFor(absl::Milliseconds(500));
  }
  for (auto& t : clients) t.join();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::printf(
      "normal requests: %zu in %llds by %lld clients, %lld errors; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
      all.size(), static_cast<long long>(s.seconds), static_cast<long long>(s.clients),
      static_cast<long long>(errors.load()), Percentile(all, 0.5), Percentile(all, 0.99),
      all.empty() ? 0.0 : *std::max_element(all.begin(), all.end()));
  std::printf("slow connections still open: %lld of %lld; API: %d open files, %.1f MiB resident (peak %.1f MiB)\n",
              static_cast<long long>(slow.open()), static_cast<long long>(slow.opened()), OpenFiles(pid),
              ResidentMiB(pid), peak);
  return errors.load() > 0 || all.empty() ? 1 : 0;
}

}  // namespace
}  // namespace fleetcap::bench

int main(int argc, char** argv) { return fleetcap::bench::Main(argc, argv); }
