// The HTTP gateway against hostile clients on loopback: an unauthenticated
// request is refused from its headers without its body being read, and
// clients that send slowly are cut off so others are still served.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

// A plain TCP connection that writes whatever the test wants, as slowly as it wants.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~RawConnection() { close(fd_); }
  bool connected() const { return connected_; }

  // False once the peer has closed or reset the connection.
  bool Send(const std::string& data) {
    return send(fd_, data.data(), data.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(data.size());
  }

  // Everything received until the peer closes, or until `timeout` passes
  // (then `closed` is false).
  std::string ReceiveUntilClosed(absl::Duration timeout, bool* closed) {
    std::string out;
    const absl::Time deadline = absl::Now() + timeout;
    *closed = false;
    while (absl::Now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(absl::ToInt64Milliseconds(deadline - absl::Now()))) <= 0) continue;
      char buffer[4096];
      const ssize_t n = recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) {
        *closed = true;
        break;
      }
      out.append(buffer, static_cast<size_t>(n));
    }
    return out;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

class HttpLimitsTest : public ::testing::Test {
 protected:
  void Start(const std::vector<std::string>& flags) {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = std::move(*db);
    auto api = testing::StartApi(fleetcap::testing::kApiBin, db_->uri(), flags);
    ASSERT_THAT(api, IsOk());
    api_ = std::move(*api);
  }

  std::unique_ptr<testing::TestDatabase> db_;
  testing::ApiProcess api_;
};

TEST_F(HttpLimitsTest, AnUnauthenticatedBodyIsRefusedWithoutBeingRead) {
  Start({});
  RawConnection conn(api_.http_port);
  ASSERT_TRUE(conn.connected());
  ASSERT_TRUE(conn.Send("POST /v1/policy HTTP/1.1\r\nHost: fleetcap\r\nTransfer-Encoding: chunked\r\n\r\n"));
  // A body that never ends, arriving slowly: reading it first would mean no answer for minutes.
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    const std::string chunk = "400\r\n" + std::string(1024, 'x') + "\r\n";
    while (!stop && conn.Send(chunk)) absl::SleepFor(absl::Milliseconds(20));
  });
  bool closed = false;
  const std::string answer = conn.ReceiveUntilClosed(absl::Seconds(10), &closed);
  stop = true;
  writer.join();
  EXPECT_TRUE(absl::StartsWith(answer, "HTTP/1.1 401")) << answer;
  EXPECT_THAT(answer, HasSubstr("missing bearer token")) << answer;
  EXPECT_TRUE(closed) << "the server kept the connection open to read the body";
}

TEST_F(HttpLimitsTest, AnAuthorisedBodyTooLargeIsRefusedFromItsLength) {
  Start({});
  RawConnection conn(api_.http_port);
  ASSERT_TRUE(conn.connected());
  ASSERT_TRUE(conn.Send("POST /v1/policy HTTP/1.1\r\nHost: fleetcap\r\nAuthorization: Bearer " + api_.admin_token +
                        "\r\nContent-Length: 1000000000\r\n\r\n"));
  bool closed = false;
  const std::string answer = conn.ReceiveUntilClosed(absl::Seconds(10), &closed);
  EXPECT_TRUE(absl::StartsWith(answer, "HTTP/1.1 413")) << answer;
  EXPECT_TRUE(closed);
}

TEST_F(HttpLimitsTest, ABodySentTooSlowlyIsCutOffAtTheReadTimeout) {
  Start({"--http-read-timeout", "1"});
  RawConnection conn(api_.http_port);
  ASSERT_TRUE(conn.connected());
  ASSERT_TRUE(conn.Send("POST /v1/tokens HTTP/1.1\r\nHost: fleetcap\r\nAuthorization: Bearer " + api_.admin_token +
                        "\r\nContent-Length: 100000\r\n\r\n{"));
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    while (!stop && conn.Send(" ")) absl::SleepFor(absl::Milliseconds(100));
  });
  bool closed = false;
  const std::string answer = conn.ReceiveUntilClosed(absl::Seconds(30), &closed);
  stop = true;
  writer.join();
  EXPECT_TRUE(absl::StartsWith(answer, "HTTP/1.1 408")) << answer;
  EXPECT_THAT(answer, HasSubstr("request body")) << answer;
}

TEST_F(HttpLimitsTest, SlowClientsDoNotKeepOthersWaiting) {
  Start({"--http-read-timeout", "1", "--http-threads", "2"});
  // Three times as many slow clients as workers, each sending its headers a byte at a time.
  std::atomic<bool> stop{false};
  std::vector<std::unique_ptr<RawConnection>> slow;
  std::vector<std::thread> senders;
  for (int i = 0; i < 6; ++i) {
    slow.push_back(std::make_unique<RawConnection>(api_.http_port));
    ASSERT_TRUE(slow.back()->connected());
    senders.emplace_back([&stop, conn = slow.back().get()] {
      if (!conn->Send("GET /v1/tokens/self HTTP/1.1\r\n")) return;
      while (!stop && conn->Send("X")) absl::SleepFor(absl::Milliseconds(100));
    });
  }
  absl::SleepFor(absl::Milliseconds(300));  // let them take every worker
  const absl::Time start = absl::Now();
  auto served = testing::HttpGet(api_.http_base() + "/v1/tokens/self", api_.admin_token);
  const absl::Duration waited = absl::Now() - start;
  stop = true;
  for (auto& t : senders) t.join();
  ASSERT_THAT(served, IsOk());
  EXPECT_EQ(served->status, 200) << served->body;
  // Three rounds of cut-off slow clients at 1 s each, with room for a busy machine; a thread per
  // connection that waited 30 s per slow client would make this minutes.
  EXPECT_LT(waited, absl::Seconds(15));
  // The slow clients were told to go away: each connection is closed by the server.
  for (auto& conn : slow) {
    bool closed = false;
    conn->ReceiveUntilClosed(absl::Seconds(10), &closed);
    EXPECT_TRUE(closed);
  }
}

// Issue 28, finding 3: 64 connections that each send part of a request and
// then one header line every 3 s. With a thread per connection they held
// every worker, and each normal request waited for a read timeout (10 s) or
// more; on an event loop they hold only their sockets.
TEST_F(HttpLimitsTest, SixtyFourSlowConnectionsDelayNoOneElse) {
  Start({});
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 64; ++i) {
    slow.push_back(std::make_unique<RawConnection>(api_.http_port));
    ASSERT_TRUE(slow.back()->connected());
    ASSERT_TRUE(slow.back()->Send("GET /v1/tokens/self HTTP/1.1\r\nHost: fleetcap\r\n"));
  }
  std::atomic<bool> stop{false};
  std::thread trickle([&] {
    while (!stop) {
      for (auto& conn : slow) conn->Send("X-Slow: 1\r\n");
      for (int i = 0; i < 30 && !stop; ++i) absl::SleepFor(absl::Milliseconds(100));
    }
  });
  absl::SleepFor(absl::Seconds(1));  // every slow connection has been accepted and has sent a header line
  for (int i = 0; i < 3; ++i) {
    const absl::Time start = absl::Now();
    auto served = testing::HttpGet(api_.http_base() + "/v1/tokens/self", api_.admin_token);
    const absl::Duration waited = absl::Now() - start;
    ASSERT_THAT(served, IsOk());
    EXPECT_EQ(served->status, 200) << served->body;
    // Far below the 10 s a request waited behind a slow client that held a
    // thread until its read timeout, with room for a busy machine.
    EXPECT_LT(waited, absl::Seconds(2)) << "request " << i;
  }
  stop = true;
  trickle.join();
}

}  // namespace
}  // namespace fleetcap
