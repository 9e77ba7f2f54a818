// The remote_write receiver's memory under hostile bodies: a few bytes whose
// snappy header claims hundreds of MiB, and bodies just large enough for
// their claim to be possible, 64 at once (one per worker thread) against a
// real fleetcap-ingest. Its resident size is read from /proc while they are
// answered; past the bound the receiver is killed, so that a regression
// fails the test instead of taking the machine's memory.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::AnyOf;
using ::testing::HasSubstr;

// docs/security.md, "remote_write": 64 hostile requests at once keep the
// receiver under this resident size with its default flags.
constexpr int64_t kResidentBoundKiB = 512 * 1024;
constexpr int kHostileRequests = 64;

// A field of /proc/PID/status in KiB ("VmRSS", "VmHWM"); -1 once the process is gone.
int64_t ProcStatusKiB(pid_t pid, const std::string& field) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) != 0) continue;
    std::string digits;
    for (char c : line) {
      if (c >= '0' && c <= '9') digits += c;
    }
    int64_t kib = -1;
    return absl::SimpleAtoi(digits, &kib) ? kib : -1;
  }
  return -1;
}

// A snappy header: the decompressed length as a little-endian base-128 varint.
std::string SnappyLengthHeader(uint64_t length) {
  std::string out;
  while (length >= 0x80) {
    out += static_cast<char>((length & 0x7f) | 0x80);
    length >>= 7;
  }
  out += static_cast<char>(length);
  return out;
}

// POSTs `body` on its own connection and returns the answer's head ("" when none came).
std::string PostAndReadHead(int port, const std::string& body) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  timeval tv = absl::ToTimeval(absl::Seconds(60));
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return "";
  }
  const std::string request = absl::StrCat(
      "POST /api/v1/write HTTP/1.1\r\nHost: x\r\nContent-Encoding: snappy\r\n"
      "Content-Type: application/x-protobuf\r\nConnection: close\r\nContent-Length: ",
      body.size(), "\r\n\r\n", body);
  for (size_t sent = 0; sent < request.size();) {
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  std::string answer;
  char buf[4096];
  for (;;) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    answer.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return answer.substr(0, answer.find("\r\n\r\n"));
}

class RemoteWriteMemoryTest : public testing::MigratedDatabaseTest {};

TEST_F(RemoteWriteMemoryTest, SixtyFourHostileBodiesAtOnceStayUnderTheResidentBound) {
  auto ingest = testing::StartIngest(db_->uri(), "c1");
  ASSERT_THAT(ingest, IsOk());
  const pid_t pid = ingest->process->pid();

  // Half claim 255 MiB in 6 bytes (the size of the header and one byte);
  // half are 4 MiB of bytes that snappy could in principle expand 21 times
  // (to 85 MiB), and then turn out not to be snappy data.
  const std::string tiny = SnappyLengthHeader(uint64_t{255} << 20) + std::string(2, '\0');
  std::string plausible = SnappyLengthHeader((uint64_t{4} << 20) * 64 / 3 - 64);
  plausible.resize(size_t{4} << 20, '\xff');

  std::atomic<bool> done{false};
  std::atomic<int64_t> peak_kib{0};
  std::atomic<bool> killed{false};
  std::thread watchdog([&] {
    while (!done.load()) {
      const int64_t rss = ProcStatusKiB(pid, "VmRSS");
      if (rss > peak_kib.load()) peak_kib.store(rss);
      if (rss > kResidentBoundKiB && !killed.exchange(true)) kill(pid, SIGKILL);
      absl::SleepFor(absl::Milliseconds(2));
    }
  });
  std::vector<std::string> heads(kHostileRequests);
  std::vector<std::thread> clients;
  for (int i = 0; i < kHostileRequests; ++i) {
    clients.emplace_back([&, i] { heads[i] = PostAndReadHead(ingest->remote_write_port, i % 2 ? plausible : tiny); });
  }
  for (auto& client : clients) client.join();
  const int64_t high_water_kib = ProcStatusKiB(pid, "VmHWM");
  done.store(true);
  watchdog.join();

  ASSERT_FALSE(killed.load()) << "the receiver passed " << kResidentBoundKiB / 1024 << " MiB resident (killed at "
                              << peak_kib.load() / 1024 << " MiB)";
  EXPECT_LT(high_water_kib, kResidentBoundKiB) << "VmHWM " << high_water_kib / 1024 << " MiB";
  std::cout << "receiver under " << kHostileRequests << " hostile bodies: VmHWM " << high_water_kib / 1024
            << " MiB, peak VmRSS sampled " << peak_kib.load() / 1024 << " MiB\n";
  int over_budget = 0;
  for (int i = 0; i < kHostileRequests; ++i) {
    // Not snappy, or the decompression budget is taken for now: never
    // acknowledged, and only the budget's refusal is worth a retry.
    EXPECT_THAT(heads[i], AnyOf(HasSubstr("HTTP/1.1 400"), HasSubstr("HTTP/1.1 503"))) << i;
    if (heads[i].find("HTTP/1.1 503") != std::string::npos) {
      ++over_budget;
      EXPECT_THAT(heads[i], HasSubstr("Retry-After:")) << heads[i];
    }
    // A few bytes cannot hold 255 MiB: refused from the header alone.
    if (i % 2 == 0) {
      EXPECT_THAT(heads[i], HasSubstr("HTTP/1.1 400")) << i;
    }
  }
  std::cout << over_budget << " requests waited for the decompression budget\n";
  auto ok = testing::PostRemoteWrite(ingest->write_url(), testing::OneSampleBody());
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->status, 204) << "the budget is given back: " << ok->body;
}

}  // namespace
}  // namespace fleetcap
