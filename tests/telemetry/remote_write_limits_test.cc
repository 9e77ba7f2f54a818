// The remote_write receiver's limits, with real HTTP clients on loopback:
// the bearer token checked from the headers, no unauthenticated listening
// beyond loopback unless the network is declared trusted, a body limit
// applied before anything is read, and a read deadline a slow client
// cannot stretch.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

// A connected TCP socket to 127.0.0.1:`port`, reads timing out after `timeout`.
int Connect(int port, absl::Duration timeout) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  timeval tv = absl::ToTimeval(timeout);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// What the server sends until it closes the connection (or `fd`'s read times out).
std::string ReadAnswer(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
}

// Connections that send part of a request and then one header line every
// 3 s, as long as the object lives (issue 28, finding 3).
class SlowConnections {
 public:
  SlowConnections(int port, int count, const std::string& request_line) {
    for (int i = 0; i < count; ++i) {
      const int fd = Connect(port, absl::Milliseconds(200));
      if (fd < 0) continue;
      fds_.push_back(fd);
      const std::string start = request_line + "\r\nHost: x\r\n";
      send(fd, start.data(), start.size(), MSG_NOSIGNAL);
    }
    trickle_ = std::thread([this] {
      while (!stop_) {
        for (int fd : fds_) send(fd, "X-Slow: 1\r\n", 11, MSG_NOSIGNAL);
        for (int i = 0; i < 30 && !stop_; ++i) absl::SleepFor(absl::Milliseconds(100));
      }
    });
    absl::SleepFor(absl::Seconds(1));  // every one accepted and sending
  }
  ~SlowConnections() {
    stop_ = true;
    trickle_.join();
    for (int fd : fds_) close(fd);
  }
  size_t connected() const { return fds_.size(); }

 private:
  std::vector<int> fds_;
  std::atomic<bool> stop_{false};
  std::thread trickle_;
};

class RemoteWriteLimitsTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    token_file_ = dir_.Write("token", "s3cret-token\n");
  }
  testing::TestDir dir_{"token"};
  std::string token_file_;
};

TEST_F(RemoteWriteLimitsTest, ABearerTokenIsRequiredWhenConfigured) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--remote-write-bearer-token-file", token_file_});
  ASSERT_THAT(ingest, IsOk());
  const std::string body = testing::OneSampleBody();
  auto none = testing::PostRemoteWrite(ingest->write_url(), body);
  ASSERT_THAT(none, IsOk());
  EXPECT_EQ(none->status, 401) << none->body;
  auto wrong = testing::PostRemoteWrite(ingest->write_url(), body, {"Authorization: Bearer s3cret-tokeX"});
  ASSERT_THAT(wrong, IsOk());
  EXPECT_EQ(wrong->status, 401) << wrong->body;
  auto longer = testing::PostRemoteWrite(ingest->write_url(), body, {"Authorization: Bearer s3cret-token2"});
  ASSERT_THAT(longer, IsOk());
  EXPECT_EQ(longer->status, 401) << longer->body;
  auto right = testing::PostRemoteWrite(ingest->write_url(), body, {"Authorization: Bearer s3cret-token"});
  ASSERT_THAT(right, IsOk());
  EXPECT_EQ(right->status, 204) << right->body;
  EXPECT_EQ(
      *testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_remote_write_requests_total", "code=\"401\""),
      3);
  EXPECT_EQ(*testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_received_total"), 1)
      << "refused requests are not decoded";
}

// A refused request is answered from its headers: a client announcing a
// huge body without sending it gets its answer at once.
TEST_F(RemoteWriteLimitsTest, RefusalsComeBeforeTheBodyIsRead) {
  auto ingest =
      testing::StartIngest(db_->uri(), "c1", {"--remote-write-bearer-token-file", token_file_, "--max-body-mb", "1"});
  ASSERT_THAT(ingest, IsOk());
  for (const std::string& auth : {std::string(), std::string("Authorization: Bearer s3cret-token\r\n")}) {
    const int fd = Connect(ingest->remote_write_port, absl::Seconds(10));
    ASSERT_GE(fd, 0);
    const std::string head =
        absl::StrCat("POST /api/v1/write HTTP/1.1\r\nHost: x\r\n", auth, "Content-Length: 1000000000000\r\n\r\n");
    ASSERT_EQ(send(fd, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
    const absl::Time began = absl::Now();
    const std::string answer = ReadAnswer(fd);
    close(fd);
    EXPECT_LT(absl::Now() - began, absl::Seconds(5));
    EXPECT_EQ(answer.substr(0, 12), auth.empty() ? "HTTP/1.1 401" : "HTTP/1.1 413") << answer;
  }
}

// A chunked body (no Content-Length) is read in bounded pieces and refused
// once it passes the limit, without being read to its end.
TEST_F(RemoteWriteLimitsTest, AChunkedBodyOverTheLimitIsRefused) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--max-body-mb", "1"});
  ASSERT_THAT(ingest, IsOk());
  const std::string huge(8u << 20, 'x');
  auto refused = testing::PostRemoteWrite(ingest->write_url(), huge, {"Transfer-Encoding: chunked"});
  ASSERT_THAT(refused, IsOk());
  EXPECT_EQ(refused->status, 413) << refused->body;
  auto ok = testing::PostRemoteWrite(ingest->write_url(), testing::OneSampleBody(), {"Transfer-Encoding: chunked"});
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->status, 204) << ok->body;
}

// A client that sends its body a byte at a time holds its thread no
// longer than the read deadline: then it gets 408 and the connection ends,
// and the receiver goes on serving.
TEST_F(RemoteWriteLimitsTest, ASlowClientIsCutAtTheReadDeadline) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {"--remote-write-read-timeout", "2s"});
  ASSERT_THAT(ingest, IsOk());
  const int fd = Connect(ingest->remote_write_port, absl::Milliseconds(200));
  ASSERT_GE(fd, 0);
  const std::string head = "POST /api/v1/write HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n";
  ASSERT_EQ(send(fd, head.data(), head.size(), MSG_NOSIGNAL), static_cast<ssize_t>(head.size()));
  const absl::Time began = absl::Now();
  bool closed = false;
  std::string answer;
  while (!closed && absl::Now() - began < absl::Seconds(20)) {
    send(fd, "x", 1, MSG_NOSIGNAL);  // a byte every 200 ms: each wait for data is short
    char buf[512];
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n > 0) answer.append(buf, static_cast<size_t>(n));
    closed = n == 0;
  }
  close(fd);
  EXPECT_TRUE(closed);
  EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 408") << answer;
  EXPECT_LT(absl::Now() - began, absl::Seconds(8));
  auto ok = testing::PostRemoteWrite(ingest->write_url(), testing::OneSampleBody());
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->status, 204) << ok->body;
}

TEST_F(RemoteWriteLimitsTest, WithoutAuthenticationOnlyLoopbackUnlessTheNetworkIsTrusted) {
  auto refused = testing::Run({fleetcap::testing::kIngestBin, "prometheus", "--db", db_->uri(), "--cluster", "c1",
                               "--remote-write-listen", "0.0.0.0:0", "--wal-dir", dir_.path() + "/wal"},
                              absl::Seconds(60));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("is not loopback and remote_write has no authentication")) << refused.err;
  for (const std::vector<std::string>& allowed :
       {std::vector<std::string>{"--remote-write-trusted-network"},
        std::vector<std::string>{"--remote-write-bearer-token-file", token_file_}}) {
    std::vector<std::string> flags = {"--remote-write-listen", "0.0.0.0:0"};
    flags.insert(flags.end(), allowed.begin(), allowed.end());
    auto ingest = testing::StartIngest(db_->uri(), "c1", flags);
    EXPECT_THAT(ingest, IsOk());
  }
}

// More slow connections than the receiver had threads (64): a push is still
// answered at once, not after a read timeout (60 s).
TEST_F(RemoteWriteLimitsTest, SlowConnectionsDelayNoPush) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {});
  ASSERT_THAT(ingest, IsOk());
  SlowConnections slow(ingest->remote_write_port, 100, "POST /api/v1/write HTTP/1.1");
  ASSERT_EQ(slow.connected(), 100u);
  for (int i = 0; i < 3; ++i) {
    const absl::Time start = absl::Now();
    auto pushed = testing::PostRemoteWrite(ingest->write_url(), testing::OneSampleBody());
    ASSERT_THAT(pushed, IsOk());
    EXPECT_EQ(pushed->status, 204) << pushed->body;
    EXPECT_LT(absl::Now() - start, absl::Seconds(2)) << "push " << i;
  }
}

// The metrics listener had two threads: two slow connections held every scrape.
TEST_F(RemoteWriteLimitsTest, SlowConnectionsDelayNoScrape) {
  auto ingest = testing::StartIngest(db_->uri(), "c1", {});
  ASSERT_THAT(ingest, IsOk());
  auto pushed = testing::PostRemoteWrite(ingest->write_url(), testing::OneSampleBody());  // a sample to count
  ASSERT_THAT(pushed, IsOk());
  SlowConnections slow(ingest->metrics_port, 16, "GET /metrics HTTP/1.1");
  ASSERT_EQ(slow.connected(), 16u);
  const absl::Time start = absl::Now();
  auto received = testing::ScrapeMetric(ingest->metrics_port, "fleetcap_telemetry_samples_received_total");
  EXPECT_THAT(received, IsOk());
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
}

}  // namespace
}  // namespace fleetcap
