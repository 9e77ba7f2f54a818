#include "common/socket_deadlines.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "absl/time/time.h"
#include "common/clock.h"

namespace fleetcap {
namespace {

int PortOf(int fd) {
  sockaddr_in addr{};
  socklen_t size = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size);
  return ntohs(addr.sin_port);
}

// A loopback TCP connection: `server` is the accepted end, as a civetweb
// worker holds it, and `connection` names it as civetweb describes it.
class LoopbackConnection : public ::testing::Test {
 protected:
  void SetUp() override {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener_, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ASSERT_EQ(bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(listen(listener_, 1), 0);
    addr.sin_port = htons(static_cast<uint16_t>(PortOf(listener_)));
    client_ = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_EQ(connect(client_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    server_ = accept(listener_, nullptr, nullptr);
    ASSERT_GE(server_, 0);
    // Only so that a read never ended fails the test instead of hanging it.
    const timeval give_up{30, 0};
    ASSERT_EQ(setsockopt(server_, SOL_SOCKET, SO_RCVTIMEO, &give_up, sizeof give_up), 0);
    connection_ = {PortOf(listener_), "127.0.0.1", PortOf(client_)};
  }
  void TearDown() override {
    for (int fd : {server_, client_, listener_}) {
      if (fd >= 0) close(fd);
    }
  }

  // What the client receives until the server's end is shut down for writing.
  std::string ReceivedByClient() {
    std::string received;
    char buffer[64];
    ssize_t n;
    while ((n = recv(client_, buffer, sizeof buffer, 0)) > 0) received.append(buffer, static_cast<size_t>(n));
    return received;
  }

  int listener_ = -1, client_ = -1, server_ = -1;
  TcpConnection connection_;
};

TEST_F(LoopbackConnection, AReadPastItsDeadlineEndsAndTheAnswerIsStillSent) {
  SimulatedClock clock(absl::FromUnixSeconds(1767225600));
  SocketDeadlines deadlines(&clock);
  // Armed for 10 s ahead: the watcher sleeps on the clock until then. The
  // read, with nothing ever sent, waits only until the watcher shuts the
  // socket's reading side.
  const int64_t armed = deadlines.Arm(connection_, clock.Now() + absl::Seconds(10));
  char buffer[8];
  while (clock.UntilNextDeadline() != absl::Seconds(10)) std::this_thread::yield();  // the watcher saw it
  clock.Advance(absl::Seconds(9));
  ASSERT_EQ(send(client_, "b", 1, 0), 1);  // still read before the deadline
  EXPECT_EQ(recv(server_, buffer, sizeof buffer, 0), 1);
  clock.Advance(absl::Seconds(1));
  EXPECT_EQ(recv(server_, buffer, sizeof buffer, 0), 0);
  EXPECT_TRUE(deadlines.Disarm(armed));
  ASSERT_EQ(send(server_, "408", 3, MSG_NOSIGNAL), 3);
  shutdown(server_, SHUT_WR);
  EXPECT_EQ(ReceivedByClient(), "408");
}

TEST_F(LoopbackConnection, ADisarmedConnectionIsLeftAlone) {
  SocketDeadlines deadlines(RealClock::Instance());
  EXPECT_FALSE(deadlines.Disarm(deadlines.Arm(connection_, absl::InfiniteFuture())));
  ASSERT_EQ(send(client_, "body", 4, 0), 4);
  char buffer[8];
  EXPECT_EQ(recv(server_, buffer, sizeof buffer, 0), 4);
}

TEST_F(LoopbackConnection, ShutDownConnectionEndsBothWaysAfterTheAnswer) {
  ASSERT_EQ(send(server_, "401", 3, MSG_NOSIGNAL), 3);
  EXPECT_TRUE(ShutDownConnection(connection_));
  EXPECT_EQ(ReceivedByClient(), "401");
  char buffer[8];
  EXPECT_EQ(recv(server_, buffer, sizeof buffer, 0), 0);
}

TEST_F(LoopbackConnection, AnotherPeerIsNotFound) {
  TcpConnection other = connection_;
  other.peer_port = connection_.peer_port == 1 ? 2 : 1;
  EXPECT_FALSE(ShutDownConnection(other));
  ASSERT_EQ(send(client_, "body", 4, 0), 4);
  char buffer[8];
  EXPECT_EQ(recv(server_, buffer, sizeof buffer, 0), 4);
}

}  // namespace
}  // namespace fleetcap
